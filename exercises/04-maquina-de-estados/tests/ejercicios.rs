//! Pruebas del capítulo 04. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/04-maquina-de-estados`) y contra la solución
//! (`solutions/04-maquina-de-estados`). Un módulo por ejercicio.
//!
//! Lo que comprueba cada módulo:
//!
//! - `cuenta`: `Pending` exactamente n veces y luego `Ready(n)`; antes de
//!   cada `Pending`, un `wake` del waker de ESE sondeo (no de uno guardado),
//!   y ninguno de más (al dar `Ready` no se despierta a nadie).
//! - `bloquea`: el valor llega; el waker despierta al hilo que llamó a
//!   `block_on` desde cualquier hilo; entre un `Pending` y su `wake` el hilo
//!   duerme (no sondea: ni en bucle ni cada milisegundo, aunque el `wake`
//!   tarde decenas de milisegundos); un `wake` que llega antes de dormirse,
//!   o a la vez, con hilos de verdad, no se pierde.
//! - `senal`: `Pending` sin despertar a nadie hasta `activa`; `activa`
//!   despierta al waker del último sondeo, desde cualquier hilo, y lo hace
//!   sin tener el candado (quien despierta puede sondear en ese instante);
//!   mirar la bandera y guardar el waker van bajo el MISMO candado, o un
//!   `activa` que llegue entre las dos cosas se pierde.
//!
//! Todo lo que puede quedarse esperando tiene un plazo de guarda con un
//! mensaje; una solución correcta tarda microsegundos en cada paso.

mod cuenta {
    use std::future::Future;
    use std::pin::Pin;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::task::{Context, Poll, Wake, Waker};
    use std::time::Duration;

    use tokio_test::task::spawn;
    use tokio_test::{assert_pending, assert_ready_eq};

    use maquina_de_estados::cuenta::Cuenta;

    #[test]
    fn cero_esta_lista_al_primer_sondeo() {
        let mut tarea = spawn(Cuenta::new(0));
        assert_ready_eq!(tarea.poll(), 0, "Cuenta::new(0) no tiene nada que esperar: Ready(0) a la primera");
    }

    #[test]
    fn devuelve_pending_n_veces_y_luego_ready() {
        let mut tarea = spawn(Cuenta::new(3));
        for vez in 1..=3 {
            assert_pending!(tarea.poll(), "el sondeo {vez} de Cuenta::new(3) debe dar Pending");
        }
        assert_ready_eq!(tarea.poll(), 3, "tras tres Pending, el cuarto sondeo debe dar Ready(3)");
    }

    #[test]
    fn se_despierta_antes_de_cada_pending() {
        let mut tarea = spawn(Cuenta::new(4));
        for vez in 1..=4 {
            assert_pending!(tarea.poll());
            assert!(
                tarea.is_woken(),
                "el sondeo {vez} devolvió Pending sin llamar a wake(): nadie volverá a sondearte. \
                 Llama a cx.waker().wake_by_ref() antes de devolver Pending"
            );
        }
        assert_ready_eq!(tarea.poll(), 4);
    }

    #[test]
    fn despierta_a_la_tarea_del_ultimo_sondeo() {
        let mut primera = spawn(Cuenta::new(2));
        assert_pending!(primera.poll());
        // El future cambia de tarea: se sondeó en una y ahora lo sondea otra,
        // con otro waker (como cuando se manda a otra tarea o a otro ejecutor).
        let mut segunda = spawn(primera.into_inner());
        assert_pending!(segunda.poll());
        assert!(
            segunda.is_woken(),
            "el segundo sondeo llegó con otro waker y despertaste al de antes: usa `cx.waker()` de \
             CADA sondeo, no uno guardado del primero"
        );
        assert_ready_eq!(segunda.poll(), 2);
    }

    /// Un waker que cuenta cuántas veces lo despiertan.
    struct Contador(AtomicUsize);

    impl Wake for Contador {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn despierta_una_vez_por_pending_y_ninguna_al_terminar() {
        let contador = Arc::new(Contador(AtomicUsize::new(0)));
        let waker = Waker::from(Arc::clone(&contador));
        let mut cx = Context::from_waker(&waker);
        let mut cuenta = Cuenta::new(3);
        for vez in 1..=3 {
            assert!(
                Pin::new(&mut cuenta).poll(&mut cx).is_pending(),
                "Cuenta::new(3) da Pending en los sondeos 1, 2 y 3; en el sondeo {vez} dio Ready antes de tiempo"
            );
            assert_eq!(
                contador.0.load(Ordering::SeqCst),
                vez,
                "tras el Pending número {vez} debe haber {vez} despertares: uno por cada Pending"
            );
        }
        assert_eq!(
            Pin::new(&mut cuenta).poll(&mut cx),
            Poll::Ready(3),
            "tras sus 3 Pending, el cuarto sondeo de Cuenta::new(3) da Ready(3)"
        );
        assert_eq!(
            contador.0.load(Ordering::SeqCst),
            3,
            "al dar Ready ya no hay nada que esperar: despertar ahí pide un sondeo que no sirve para nada"
        );
    }

    // Con el reloj en pausa, si nadie despierta a la tarea el runtime se queda
    // ocioso, el reloj salta al plazo y `timeout` falla enseguida (no cuelga).
    #[tokio::test(start_paused = true)]
    async fn termina_dentro_de_tokio() {
        let resultado = tokio::time::timeout(Duration::from_secs(1), Cuenta::new(5)).await;
        assert_eq!(
            resultado.ok(),
            Some(5),
            "Tokio no volvió a sondear tu Cuenta: ¿despiertas a la tarea antes de devolver Pending?"
        );
    }
}

mod bloquea {
    use std::future::Future;
    use std::pin::Pin;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Arc, mpsc};
    use std::task::{Context, Poll};
    use std::thread;
    use std::time::Duration;

    use maquina_de_estados::bloquea::block_on;

    /// Ejecuta `f` en un hilo nuevo. Si no vuelve, la prueba falla con un
    /// mensaje en vez de colgarse: es una red de seguridad, no una medida
    /// (una solución correcta vuelve en microsegundos).
    fn sin_colgarse<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let _ = tx.send(f());
        });
        match rx.recv_timeout(Duration::from_secs(5)) {
            Ok(valor) => valor,
            Err(mpsc::RecvTimeoutError::Timeout) => panic!(
                "block_on sigue dormido 5 s después de que despertaran al future: \
                 ¿tu Waker hace unpark del hilo que llamó a block_on?"
            ),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                panic!("block_on entró en pánico: mira el mensaje de arriba")
            }
        }
    }

    /// Lo que anota el future de prueba.
    #[derive(Default)]
    struct Registro {
        sondeos: AtomicUsize,
        despertares: AtomicUsize,
        sondeos_sin_despertar: AtomicUsize,
        despertado: AtomicBool,
    }

    /// Devuelve `Pending` `restantes` veces. Cada vez, otro hilo lo despierta
    /// (después de anotarlo). Anota si alguien lo sondea sin que lo hayan
    /// despertado desde su último `Pending`.
    struct DespiertaOtroHilo {
        restantes: u32,
        registro: Arc<Registro>,
    }

    impl Future for DespiertaOtroHilo {
        type Output = &'static str;

        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<&'static str> {
            let r = &self.registro;
            let sondeo = r.sondeos.fetch_add(1, Ordering::SeqCst) + 1;
            if sondeo > 1 && !r.despertado.swap(false, Ordering::SeqCst) {
                r.sondeos_sin_despertar.fetch_add(1, Ordering::SeqCst);
            }
            if self.restantes == 0 {
                return Poll::Ready("hecho");
            }
            self.restantes -= 1;
            let waker = cx.waker().clone();
            let registro = Arc::clone(&self.registro);
            thread::spawn(move || {
                registro.despertares.fetch_add(1, Ordering::SeqCst);
                registro.despertado.store(true, Ordering::SeqCst);
                waker.wake();
            });
            Poll::Pending
        }
    }

    #[test]
    fn devuelve_el_valor_de_un_future_listo() {
        let valor = sin_colgarse(|| block_on(async { 6 * 7 }));
        assert_eq!(valor, 42, "`block_on` debe devolver el valor del future: async {{ 6 * 7 }} da 42");
    }

    #[test]
    fn espera_a_un_future_que_despiertan_desde_otro_hilo() {
        let registro = Arc::new(Registro::default());
        let future = DespiertaOtroHilo { restantes: 5, registro: Arc::clone(&registro) };
        let valor = sin_colgarse(move || block_on(future));
        assert_eq!(valor, "hecho", "`block_on` debe devolver el valor del future cuando por fin da Ready: \"hecho\"");
        assert_eq!(
            registro.despertares.load(Ordering::SeqCst),
            5,
            "block_on devolvió el valor antes de que despertaran al future las 5 veces: \
             tras un Pending, espera a que llamen a wake() antes de volver a sondear"
        );
    }

    #[test]
    fn no_sondea_sin_que_lo_despierten() {
        let registro = Arc::new(Registro::default());
        let future = DespiertaOtroHilo { restantes: 5, registro: Arc::clone(&registro) };
        sin_colgarse(move || block_on(future));
        let sondeos = registro.sondeos.load(Ordering::SeqCst);
        let sin_despertar = registro.sondeos_sin_despertar.load(Ordering::SeqCst);
        assert!(
            sin_despertar == 0 && sondeos <= 6,
            "block_on sondeó {sondeos} veces un future que solo despertaron 5 veces \
             ({sin_despertar} sondeos sin despertar): eso es espera activa. Tras un Pending, \
             duerme con thread::park() hasta que el Waker haga unpark"
        );
    }

    #[test]
    fn sirve_con_un_future_que_se_despierta_a_si_mismo() {
        // Aquí el wake() llega ANTES de que block_on se duerma: no debe perderse.
        let valor = sin_colgarse(|| {
            block_on(async {
                let mut cedidas = 0;
                for _ in 0..3 {
                    let mut cedido = false;
                    std::future::poll_fn(|cx| {
                        if cedido {
                            return Poll::Ready(());
                        }
                        cedido = true;
                        cx.waker().wake_by_ref();
                        Poll::Pending
                    })
                    .await;
                    cedidas += 1;
                }
                cedidas
            })
        });
        assert_eq!(
            valor, 3,
            "el future cede tres veces y se despierta a sí mismo DURANTE el sondeo, antes de que `block_on` duerma: \
             debe seguir sondeándolo hasta el final y devolver 3. Ese despertar no puede perderse: con park y \
             unpark no se pierde (un unpark antes del park deja el permiso guardado y park vuelve enseguida)"
        );
    }

    /// Da `Pending` una vez; otro hilo lo despierta 30 ms después. Cuenta
    /// sus sondeos: un `block_on` que duerme lo sondea dos veces.
    struct DespiertaTarde {
        lanzado: bool,
        listo: Arc<AtomicBool>,
        sondeos: Arc<AtomicUsize>,
    }

    impl Future for DespiertaTarde {
        type Output = ();

        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
            self.sondeos.fetch_add(1, Ordering::SeqCst);
            if self.listo.load(Ordering::SeqCst) {
                return Poll::Ready(());
            }
            if !self.lanzado {
                self.lanzado = true;
                let (listo, waker) = (Arc::clone(&self.listo), cx.waker().clone());
                thread::spawn(move || {
                    thread::sleep(Duration::from_millis(30));
                    listo.store(true, Ordering::SeqCst);
                    waker.wake();
                });
            }
            Poll::Pending
        }
    }

    #[test]
    fn duerme_aunque_el_despertar_tarde() {
        let sondeos = Arc::new(AtomicUsize::new(0));
        let future =
            DespiertaTarde { lanzado: false, listo: Arc::new(AtomicBool::new(false)), sondeos: Arc::clone(&sondeos) };
        sin_colgarse(move || block_on(future));
        let n = sondeos.load(Ordering::SeqCst);
        assert!(
            n <= 3,
            "el future dio Pending y lo despertaron 30 ms después, una sola vez; block_on lo sondeó {n} \
             veces: eso es sondear a ratos (park_timeout, sleep cortos), no dormir. Duerme con \
             thread::park() hasta que el Waker haga unpark, sin plazo"
        );
    }

    /// Da `Pending` `restantes` veces; cada vez manda su waker a un hilo
    /// ayudante que lo despierta en cuanto lo recibe, a la vez que
    /// `block_on` se va a dormir.
    struct Carrera {
        restantes: u32,
        ayudante: mpsc::Sender<std::task::Waker>,
    }

    impl Future for Carrera {
        type Output = u32;

        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
            if self.restantes == 0 {
                return Poll::Ready(7);
            }
            self.restantes -= 1;
            let _ = self.ayudante.send(cx.waker().clone());
            Poll::Pending
        }
    }

    #[test]
    fn no_pierde_despertares_con_hilos_de_verdad() {
        let (tx, rx) = mpsc::channel::<std::task::Waker>();
        thread::spawn(move || {
            for waker in rx {
                waker.wake();
            }
        });
        let valor = sin_colgarse(move || block_on(Carrera { restantes: 2_000, ayudante: tx }));
        assert_eq!(valor, 7, "`block_on` debe devolver el 7 del future tras sus 2000 despertares desde otro hilo");
    }

    #[test]
    fn se_puede_usar_con_async_y_await() {
        let registro = Arc::new(Registro::default());
        let r = Arc::clone(&registro);
        let valor = sin_colgarse(move || {
            block_on(async move {
                let a = DespiertaOtroHilo { restantes: 2, registro: Arc::clone(&r) }.await;
                let b = DespiertaOtroHilo { restantes: 1, registro: Arc::new(Registro::default()) }.await;
                format!("{a} y {b}")
            })
        });
        assert_eq!(
            valor, "hecho y hecho",
            "`block_on` debe devolver el valor del bloque async, que espera a dos futures despertados desde otros \
             hilos"
        );
    }
}

mod senal {
    use std::future::Future;
    use std::pin::Pin;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex, mpsc};
    use std::task::{Context, RawWaker, RawWakerVTable, Wake, Waker};
    use std::thread;
    use std::time::Duration;

    use tokio_test::task::spawn;
    use tokio_test::{assert_pending, assert_ready};

    use maquina_de_estados::senal::{Espera, senal};

    #[test]
    fn pendiente_hasta_que_se_activa() {
        let (activador, espera) = senal();
        let mut tarea = spawn(espera);
        assert_pending!(tarea.poll(), "la señal aún no está activada: la espera debe dar Pending");
        assert!(!tarea.is_woken(), "nadie ha activado la señal: no despiertes a la tarea todavía");
        activador.activa();
        assert!(
            tarea.is_woken(),
            "activa() no despertó a la tarea que esperaba: en poll, guarda una copia de \
             cx.waker() antes de devolver Pending, y en activa() llama a wake()"
        );
        assert_ready!(tarea.poll(), "tras activa(), la espera debe dar Ready");
    }

    #[test]
    fn activada_antes_de_esperar() {
        let (activador, espera) = senal();
        activador.activa();
        let mut tarea = spawn(espera);
        assert_ready!(tarea.poll(), "la señal ya estaba activada: Ready al primer sondeo");
    }

    #[test]
    fn despierta_a_la_tarea_del_ultimo_sondeo() {
        let (activador, espera) = senal();
        let mut primera = spawn(espera);
        assert_pending!(primera.poll());
        // La espera cambia de tarea: se sondeó en una y ahora la sondea otra,
        // con otro waker (como cuando se manda a otra tarea o a otro ejecutor).
        let mut segunda = spawn(primera.into_inner());
        assert_pending!(segunda.poll());
        activador.activa();
        assert!(
            segunda.is_woken(),
            "activa() no despertó a la tarea que sondeó la espera por última vez: \
             guarda el waker de CADA sondeo, no solo el del primero"
        );
        assert_ready!(segunda.poll());
    }

    #[test]
    fn activar_dos_veces_no_pasa_nada() {
        let (activador, espera) = senal();
        let otro = activador.clone();
        let mut tarea = spawn(espera);
        assert_pending!(tarea.poll());
        activador.activa();
        otro.activa();
        assert_ready!(tarea.poll());
    }

    #[test]
    fn la_espera_se_puede_mandar_a_otro_hilo() {
        fn es_send_y_static<T: Send + 'static>(_: &T) {}
        let (activador, espera) = senal();
        es_send_y_static(&espera);
        es_send_y_static(&activador);
        let _: &Espera = &espera;
    }

    /// Un waker que, al despertar, sondea la espera desde otro hilo (como un
    /// ejecutor que la sondea enseguida en otro trabajador) y anota si ese
    /// sondeo pudo hacerse mientras `wake()` seguía en marcha.
    struct SondeaAlDespertar {
        espera: Arc<Mutex<Espera>>,
        sondeo_posible: Mutex<Option<bool>>,
    }

    impl Wake for SondeaAlDespertar {
        fn wake(self: Arc<Self>) {
            let (tx, rx) = mpsc::channel();
            let espera = Arc::clone(&self.espera);
            thread::spawn(move || {
                let mut espera = espera.lock().unwrap();
                let r = Pin::new(&mut *espera).poll(&mut Context::from_waker(Waker::noop()));
                let _ = tx.send(r.is_ready());
            });
            // Si `activa` tiene el candado mientras llama a wake(), ese sondeo
            // no puede avanzar hasta que wake() vuelva: se esperan 500 ms.
            let listo = rx.recv_timeout(Duration::from_millis(500)).unwrap_or(false);
            *self.sondeo_posible.lock().unwrap() = Some(listo);
        }
    }

    #[test]
    fn despierta_sin_tener_el_candado() {
        let (activador, espera) = senal();
        let espera = Arc::new(Mutex::new(espera));
        let espia = Arc::new(SondeaAlDespertar { espera: Arc::clone(&espera), sondeo_posible: Mutex::new(None) });
        let waker = Waker::from(Arc::clone(&espia));
        {
            let mut e = espera.lock().unwrap();
            assert!(
                Pin::new(&mut *e).poll(&mut Context::from_waker(&waker)).is_pending(),
                "la señal aún no está activada: el primer sondeo de la espera debe dar Pending"
            );
        }
        activador.activa();
        assert_eq!(
            *espia.sondeo_posible.lock().unwrap(),
            Some(true),
            "cuando activa() llamó a wake(), la espera no se podía sondear: tenías el candado. Saca el \
             waker con take(), suelta el candado (termina el bloque) y llama a wake() después; quien \
             despierta puede querer sondear en ese mismo instante"
        );
    }

    /// Un waker hecho a mano que, la primera vez que lo clonan, activa la
    /// señal desde otro hilo y espera (hasta 100 ms) a que `activa` termine.
    /// Así `activa` cae justo cuando `poll` guarda su copia del waker.
    struct Espia {
        despertado: AtomicBool,
        al_clonar: Mutex<Option<Box<dyn FnOnce() + Send>>>,
    }

    fn waker_espia(espia: Arc<Espia>) -> Waker {
        fn clona(p: *const ()) -> RawWaker {
            // SAFETY: `p` viene de `Arc::into_raw` de un `Arc<Espia>` vivo.
            let espia = unsafe { &*(p as *const Espia) };
            let gancho = espia.al_clonar.lock().unwrap().take();
            if let Some(gancho) = gancho {
                gancho();
            }
            unsafe { Arc::increment_strong_count(p as *const Espia) };
            RawWaker::new(p, &TABLA)
        }
        fn despierta(p: *const ()) {
            despierta_ref(p);
            suelta(p);
        }
        fn despierta_ref(p: *const ()) {
            // SAFETY: como en `clona`.
            unsafe { &*(p as *const Espia) }.despertado.store(true, Ordering::SeqCst);
        }
        fn suelta(p: *const ()) {
            // SAFETY: cada RawWaker tiene su propia cuenta en el Arc.
            unsafe { Arc::decrement_strong_count(p as *const Espia) };
        }
        static TABLA: RawWakerVTable = RawWakerVTable::new(clona, despierta, despierta_ref, suelta);
        let p = Arc::into_raw(espia) as *const ();
        // SAFETY: la tabla cumple el contrato de RawWaker con un Arc<Espia>.
        unsafe { Waker::from_raw(RawWaker::new(p, &TABLA)) }
    }

    #[test]
    fn mirar_y_guardar_bajo_el_mismo_candado() {
        let (activador, mut espera) = senal();
        let (hecho_tx, hecho_rx) = mpsc::channel();
        let gancho = move || {
            let (tx, rx) = mpsc::channel();
            thread::spawn(move || {
                activador.activa();
                let _ = tx.send(());
                let _ = hecho_tx.send(());
            });
            // Con el candado tomado en `poll`, `activa` tiene que esperar: bien.
            let _ = rx.recv_timeout(Duration::from_millis(100));
        };
        let espia =
            Arc::new(Espia { despertado: AtomicBool::new(false), al_clonar: Mutex::new(Some(Box::new(gancho))) });
        let waker = waker_espia(Arc::clone(&espia));
        let resultado = Pin::new(&mut espera).poll(&mut Context::from_waker(&waker));
        if espia.al_clonar.lock().unwrap().is_some() {
            // Nadie clonó el waker: la prueba no llegó a activar la señal.
            assert!(
                resultado.is_ready(),
                "la espera dio Pending sin guardar una copia de cx.waker(): nadie podrá despertarla"
            );
            return;
        }
        hecho_rx.recv_timeout(Duration::from_secs(3)).expect("3 s esperando a que `activa` termine");
        assert!(
            resultado.is_ready() || espia.despertado.load(Ordering::SeqCst),
            "`activa` llegó entre que `poll` miró la bandera y guardó el waker: la espera dio Pending y \
             nadie la despertará nunca (un despertar perdido). Mira `activada` y guarda el waker sin \
             soltar el candado entre medias (una sola guarda para las dos cosas)"
        );
    }

    #[test]
    fn activar_desde_otro_hilo_a_la_vez_que_se_sondea() {
        for vuelta in 0..300 {
            let (activador, mut espera) = senal();
            let barrera = Arc::new(std::sync::Barrier::new(2));
            let b = Arc::clone(&barrera);
            let hilo = thread::spawn(move || {
                b.wait();
                activador.activa();
            });
            let contador = Arc::new(Despertado(AtomicBool::new(false)));
            let waker = Waker::from(Arc::clone(&contador));
            barrera.wait();
            let listo = Pin::new(&mut espera).poll(&mut Context::from_waker(&waker)).is_ready();
            hilo.join().unwrap();
            assert!(
                listo || contador.0.load(Ordering::SeqCst),
                "vuelta {vuelta}: `activa` en otro hilo, a la vez que el sondeo, y la espera dio Pending \
                 sin que nadie la despertara: un despertar perdido"
            );
        }
    }

    struct Despertado(AtomicBool);

    impl Wake for Despertado {
        fn wake(self: Arc<Self>) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    // Una tarea de Tokio espera; un hilo del sistema activa la señal. Con el
    // reloj en pausa, si nadie despierta a la tarea, `timeout` falla enseguida.
    #[tokio::test(start_paused = true)]
    async fn un_hilo_despierta_a_una_tarea_de_tokio() {
        let (activador, espera) = senal();
        let tarea = tokio::spawn(espera);
        tokio::task::yield_now().await; // deja que la tarea se sondee y espere
        std::thread::spawn(move || activador.activa()).join().unwrap();
        let resultado = tokio::time::timeout(Duration::from_secs(1), tarea).await;
        assert!(
            matches!(resultado, Ok(Ok(()))),
            "la tarea no terminó tras activa(): ¿llamas a wake() sobre el waker guardado?"
        );
    }
}
