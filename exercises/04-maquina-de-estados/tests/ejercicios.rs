//! Pruebas del capítulo 04. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/04-maquina-de-estados`) y contra la solución
//! (`solutions/04-maquina-de-estados`). Un módulo por ejercicio.

mod cuenta {
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
        assert_eq!(valor, 42);
    }

    #[test]
    fn espera_a_un_future_que_despiertan_desde_otro_hilo() {
        let registro = Arc::new(Registro::default());
        let future = DespiertaOtroHilo { restantes: 5, registro: Arc::clone(&registro) };
        let valor = sin_colgarse(move || block_on(future));
        assert_eq!(valor, "hecho");
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
        assert_eq!(valor, 3);
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
        assert_eq!(valor, "hecho y hecho");
    }
}

mod senal {
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
        // La espera cambia de tarea (como cuando un `select!` la mueve, o un
        // ejecutor la sondea con otro waker).
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
