//! Pruebas del capítulo 11. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/11-recursos-sin-limite`) y contra la solución
//! (`solutions/11-recursos-sin-limite`). Un módulo por ejercicio.
//!
//! Lo que se comprueba (cada propiedad tiene una prueba que falla si solo
//! esa se rompe):
//!
//! - `limita`: los resultados vuelven en el orden de `i`; nunca hay más de
//!   `limite` trabajos en marcha ni más de `limite` tareas vivas, y se llega
//!   a `limite`; tarda lo que debe; un hueco libre se usa enseguida (no se
//!   espera a que acabe una tanda entera); quien lanza duerme mientras espera
//!   un permiso y se le despierta cuando se suelta uno; y los bordes: `n = 0`,
//!   `limite = 1`, `limite > n`, `n` que no es múltiplo de `limite`.
//! - `rechaza`: acepta mientras cabe y lo aceptado llega en orden; con la cola
//!   llena rechaza en el primer sondeo, con el trabajo dentro; no pierde
//!   nada y las cuentas cuadran; sin buzón, `Cerrada`, también si la cola
//!   estaba llena; vuelve a aceptar cuando hay sitio; y con varios hilos
//!   ofreciendo a la vez y otro sacando, ninguna oferta espera, nada se
//!   pierde y las cuentas cuadran. Lo que se mira no vale para después: con
//!   una cola con costura, otro productor la llena justo después de que
//!   mires `capacity()`, o el buzón se suelta justo después de que mires
//!   `is_closed()`, y la respuesta sigue siendo la buena.
//! - `despacha`: termina todo lo que aceptó, también lo que seguía en la cola
//!   al cerrarla; nunca más de `simultaneos` a la vez, y se llega a ese
//!   número; con todo ocupado, la cola se llena (no saca más de lo que puede
//!   atender); una cola vacía no es una cola cerrada; termina si no llega
//!   nada; mientras no llega nada, duerme; y mientras sirve no acumula lo ya
//!   terminado (un asignador que cuenta los bytes vivos lo comprueba).
//!
//! Las que usan tiempo corren con el reloj de Tokio en pausa: un `sleep` no
//! espera de verdad, el reloj salta al siguiente temporizador cuando no queda
//! nada que hacer, y el resultado es el mismo en cualquier máquina. Los
//! límites no se miden con tiempos sino con contadores que actualizan los
//! propios trabajos: cuántos hay en marcha y el máximo que se ha visto nunca.
//!
//! Ese reloj solo avanza cuando ninguna tarea tiene nada que hacer. Una tarea
//! que no se duerme nunca (un bucle con `try_recv` o `try_acquire` y
//! `yield_now`) lo deja parado, y la prueba no terminaría: por eso cada una
//! corre en su propio hilo, con una red de tiempo real ([`apoyo::en_pausa`])
//! que la da por fallida, con un mensaje, si no termina en unos segundos.

/// Un asignador que cuenta, hilo a hilo, los bytes vivos que ha pedido ese
/// hilo: así una prueba ve si lo que sirve un despachador se queda en memoria.
/// Solo cuenta; quien asigna de verdad es el del sistema.
mod memoria {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    pub struct Contador;

    thread_local! {
        static VIVOS: Cell<isize> = const { Cell::new(0) };
    }

    fn suma(bytes: isize) {
        let _ = VIVOS.try_with(|v| v.set(v.get() + bytes));
    }

    /// Bytes pedidos y aún no devueltos en este hilo (los que otro hilo
    /// devuelva cuentan en el suyo).
    pub fn vivos_en_este_hilo() -> isize {
        VIVOS.with(Cell::get)
    }

    unsafe impl GlobalAlloc for Contador {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            suma(layout.size() as isize);
            unsafe { System.alloc(layout) }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            suma(-(layout.size() as isize));
            unsafe { System.dealloc(ptr, layout) }
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            suma(layout.size() as isize);
            unsafe { System.alloc_zeroed(layout) }
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, nuevo: usize) -> *mut u8 {
            suma(nuevo as isize - layout.size() as isize);
            unsafe { System.realloc(ptr, layout, nuevo) }
        }
    }

    #[global_allocator]
    static CONTADOR: Contador = Contador;
}

mod apoyo {
    use std::future::Future;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc::{self, RecvTimeoutError};
    use std::time::Duration;

    /// Lo que ven los trabajos de las pruebas: cuántos están en marcha, el
    /// máximo de trabajos y de tareas vivas que se ha visto, y cuántos han
    /// terminado.
    #[derive(Default)]
    pub struct Vigia {
        en_curso: AtomicUsize,
        max: AtomicUsize,
        max_tareas: AtomicUsize,
        terminados: AtomicUsize,
    }

    impl Vigia {
        pub fn nuevo() -> Arc<Vigia> {
            Arc::new(Vigia::default())
        }

        /// Al empezar un trabajo.
        pub fn entra(&self) {
            let ahora = self.en_curso.fetch_add(1, Ordering::SeqCst) + 1;
            self.max.fetch_max(ahora, Ordering::SeqCst);
            let tareas = tokio::runtime::Handle::current().metrics().num_alive_tasks();
            self.max_tareas.fetch_max(tareas, Ordering::SeqCst);
        }

        /// Al terminarlo.
        pub fn sale(&self) {
            self.en_curso.fetch_sub(1, Ordering::SeqCst);
            self.terminados.fetch_add(1, Ordering::SeqCst);
        }

        pub fn max(&self) -> usize {
            self.max.load(Ordering::SeqCst)
        }

        pub fn max_tareas(&self) -> usize {
            self.max_tareas.load(Ordering::SeqCst)
        }

        pub fn terminados(&self) -> usize {
            self.terminados.load(Ordering::SeqCst)
        }
    }

    /// Red de seguridad contra cuelgues, no un umbral de tiempo: con el reloj
    /// en pausa, si todo queda esperando algo que no llegará nunca, el reloj
    /// salta hasta aquí y la prueba falla con un mensaje en vez de colgarse.
    pub async fn sin_colgarse<F: Future>(que: &str, futuro: F) -> F::Output {
        match tokio::time::timeout(Duration::from_secs(24 * 3600), futuro).await {
            Ok(salida) => salida,
            Err(_) => panic!(
                "{que} no terminó nunca: se quedó esperando algo que no iba a llegar \
                 (¿un permiso que nadie suelta, o un emisor que sigue vivo?)"
            ),
        }
    }

    /// Red de tiempo real para las pruebas con el reloj en pausa. Con una
    /// solución correcta duran milisegundos; nunca se llega a ella.
    pub const GUARDA_REAL: Duration = Duration::from_secs(3);

    /// Corre la prueba en un *runtime* de un hilo con el reloj en pausa, en un
    /// hilo aparte. Si la prueba entra en pánico, el pánico vuelve aquí en
    /// cuanto ocurre; si no termina en [`GUARDA_REAL`], falla con un mensaje.
    pub fn en_pausa<F, Fut>(que: &'static str, prueba: F)
    where
        F: FnOnce() -> Fut + Send + 'static,
        Fut: Future<Output = ()>,
    {
        let (hecho, fin) = mpsc::channel::<()>();
        let hilo = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .start_paused(true)
                .build()
                .expect("no se pudo crear el runtime");
            runtime.block_on(prueba());
            let _ = hecho.send(());
        });
        match fin.recv_timeout(GUARDA_REAL) {
            Ok(()) => hilo.join().expect("el hilo de la prueba terminó bien"),
            Err(RecvTimeoutError::Disconnected) => {
                if let Err(panico) = hilo.join() {
                    std::panic::resume_unwind(panico);
                }
            }
            Err(RecvTimeoutError::Timeout) => panic!(
                "{que}: tras {} de tiempo real no ha terminado, y con el reloj en pausa \
                 dura milisegundos. El reloj virtual solo avanza cuando ninguna tarea tiene nada que \
                 hacer: alguna tarea no se duerme nunca (¿un bucle con try_recv, try_acquire o \
                 yield_now, en lugar de esperar con .await?)",
                medidas::duracion(GUARDA_REAL)
            ),
        }
    }

    pub fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }
}

mod limita {
    use std::sync::Arc;

    use recursos::limita::lanza_limitado;
    use tokio::sync::Semaphore;
    use tokio::time::{Instant, sleep};
    use tokio_test::{assert_pending, task};

    use crate::apoyo::{Vigia, en_pausa, ms, sin_colgarse};

    /// Un trabajo que se deja vigilar y tarda 10, 20 o 30 ms (virtuales).
    async fn trabajo(vigia: Arc<Vigia>, i: usize) -> usize {
        vigia.entra();
        sleep(ms(10 * (1 + i as u64 % 3))).await;
        vigia.sale();
        i * i
    }

    #[test]
    fn devuelve_los_resultados_en_orden() {
        en_pausa("devuelve_los_resultados_en_orden", || async {
            let vigia = Vigia::nuevo();
            let resultados = sin_colgarse("lanza_limitado", lanza_limitado(20, 4, |i| trabajo(vigia.clone(), i))).await;
            assert_eq!(
                resultados,
                (0..20).map(|i| i * i).collect::<Vec<_>>(),
                "lanza_limitado debe devolver el resultado de cada trabajo, en el orden de `i`"
            );
        });
    }

    #[test]
    fn nunca_mas_de_limite_trabajos_a_la_vez() {
        en_pausa("nunca_mas_de_limite_trabajos_a_la_vez", || async {
            let vigia = Vigia::nuevo();
            sin_colgarse("lanza_limitado", lanza_limitado(60, 5, |i| trabajo(vigia.clone(), i))).await;
            let max = vigia.max();
            assert!(
                max <= 5,
                "llegó a haber {max} trabajos en marcha a la vez con un límite de 5: el permiso tiene \
                 que seguir vivo hasta que el trabajo termine (ojo: `let _ = ...` lo suelta en esa \
                 misma línea)"
            );
            assert_eq!(
                max, 5,
                "nunca hubo 5 trabajos a la vez, y el límite es 5: un permiso por tarea, no uno para todas"
            );
        });
    }

    #[test]
    fn nunca_mas_de_limite_tareas_vivas() {
        en_pausa("nunca_mas_de_limite_tareas_vivas", || async {
            let vigia = Vigia::nuevo();
            sin_colgarse("lanza_limitado", lanza_limitado(60, 5, |i| trabajo(vigia.clone(), i))).await;
            let tareas = vigia.max_tareas();
            assert!(
                tareas <= 5,
                "llegó a haber {tareas} tareas vivas a la vez con un límite de 5. Pide el permiso \
                 antes de `tokio::spawn`, no dentro de la tarea: una tarea que espera su permiso \
                 también ocupa memoria"
            );
            assert!(tareas >= 1, "ningún trabajo corrió en una tarea propia: lánzalos con tokio::spawn");
        });
    }

    #[test]
    fn tarda_lo_que_debe() {
        en_pausa("tarda_lo_que_debe", || async {
            // Diez trabajos de 100 ms, cinco a la vez: dos tandas, 200 ms.
            let inicio = Instant::now();
            sin_colgarse("lanza_limitado", lanza_limitado(10, 5, |_| sleep(ms(100)))).await;
            let tardado = inicio.elapsed();
            assert!(
                tardado >= ms(200) && tardado < ms(201),
                "diez trabajos de 100 ms, cinco a la vez, deberían tardar 200 ms; tardaron {} \
                 (100 ms: no hay límite; 1000 ms: van de uno en uno)",
                medidas::duracion(tardado)
            );
        });
    }

    #[test]
    fn un_hueco_libre_se_usa_enseguida() {
        en_pausa("un_hueco_libre_se_usa_enseguida", || async {
            // Seis trabajos, dos a la vez: el primero tarda 300 ms y los demás,
            // 100. Mientras el primero sigue, el otro hueco atiende el 1, el 2
            // y el 3; a los 300 ms quedan dos huecos para el 4 y el 5: 400 ms.
            // Por tandas de dos (esperar a que acaben los dos para lanzar los
            // dos siguientes) serían 300 + 100 + 100 = 500 ms.
            let inicio = Instant::now();
            let duraciones = [300, 100, 100, 100, 100, 100];
            sin_colgarse("lanza_limitado", lanza_limitado(6, 2, |i| sleep(ms(duraciones[i])))).await;
            let tardado = inicio.elapsed();
            assert!(
                tardado >= ms(400) && tardado < ms(401),
                "deberían tardar 400 ms y tardaron {} (500 ms: lanzas por tandas y esperas a \
                 que acabe la tanda entera; cada permiso que se suelta tiene que dejar entrar al \
                 siguiente trabajo en ese momento)",
                medidas::duracion(tardado)
            );
        });
    }

    /// Un trabajo que no termina hasta que la prueba abre la puerta.
    async fn tras_la_puerta(puerta: Arc<Semaphore>, i: usize) -> usize {
        puerta.acquire().await.expect("la puerta no se cierra").forget();
        i
    }

    #[test]
    fn quien_lanza_duerme_mientras_espera_un_permiso() {
        en_pausa("quien_lanza_duerme_mientras_espera_un_permiso", || async {
            let puerta = Arc::new(Semaphore::new(0));
            let p = puerta.clone();
            let mut lanzador = task::spawn(lanza_limitado(4, 2, move |i| tras_la_puerta(p.clone(), i)));
            assert_pending!(lanzador.poll()); // lanza dos y espera un permiso
            // 50 ms virtuales en los que nadie termina: nadie suelta un permiso.
            sleep(ms(50)).await;
            assert!(
                !lanzador.is_woken(),
                "quien lanza se despertó sin que ningún trabajo hubiera terminado: está mirando una y \
                 otra vez si hay sitio (¿try_acquire o un contador con yield_now, o un sleep corto en \
                 bucle?). Espera el permiso con acquire_owned().await: el semáforo lo despierta \
                 cuando se suelta uno"
            );
            puerta.add_permits(1);
            sleep(ms(1)).await; // un trabajo termina y suelta su permiso
            assert!(lanzador.is_woken(), "un trabajo terminó y soltó su permiso, y nadie despertó a quien lanza");
            puerta.add_permits(3);
            let mut vueltas = 0;
            let resultados = loop {
                if let std::task::Poll::Ready(r) = lanzador.poll() {
                    break r;
                }
                vueltas += 1;
                assert!(vueltas < 100, "lanza_limitado no terminó con la puerta abierta");
                sleep(ms(1)).await;
            };
            assert_eq!(
                resultados,
                [0, 1, 2, 3],
                "con la puerta abierta, los 4 trabajos terminan y cada resultado va en la posición de su i"
            );
        });
    }

    #[test]
    fn en_los_bordes() {
        en_pausa("en_los_bordes", || async {
            let nada: Vec<usize> =
                sin_colgarse("lanza_limitado con n = 0", lanza_limitado(0, 3, |i| async move { i })).await;
            assert!(nada.is_empty(), "con n = 0 no hay trabajos: el resultado es un vector vacío");

            let vigia = Vigia::nuevo();
            let r = sin_colgarse("lanza_limitado", lanza_limitado(5, 1, |i| trabajo(vigia.clone(), i))).await;
            assert_eq!(
                r,
                [0, 1, 4, 9, 16],
                "cada resultado va en la posición de su i (el trabajo i da i * i), terminen en el orden que terminen"
            );
            assert_eq!(vigia.max(), 1, "con limite = 1 los trabajos van de uno en uno");

            let vigia = Vigia::nuevo();
            let inicio = Instant::now();
            let r = sin_colgarse("lanza_limitado", lanza_limitado(3, 10, |i| trabajo(vigia.clone(), i))).await;
            assert_eq!(
                r,
                [0, 1, 4],
                "con limite = 10 y solo 3 trabajos, salen los 3 resultados (i * i), cada uno en la posición de su i"
            );
            assert_eq!(vigia.max(), 3, "con limite = 10 y solo 3 trabajos, los 3 van a la vez");
            let tardado = inicio.elapsed();
            assert!(
                tardado >= ms(30) && tardado < ms(31),
                "3 trabajos a la vez (10, 20 y 30 ms) tardan 30 ms; tardaron {}",
                medidas::duracion(tardado)
            );

            // 7 trabajos de 100 ms, 3 a la vez: 3 + 3 + 1, 300 ms.
            let inicio = Instant::now();
            sin_colgarse("lanza_limitado", lanza_limitado(7, 3, |_| sleep(ms(100)))).await;
            let tardado = inicio.elapsed();
            assert!(
                tardado >= ms(300) && tardado < ms(301),
                "7 trabajos de 100 ms, 3 a la vez, tardan 300 ms (3 + 3 + 1); tardaron {}",
                medidas::duracion(tardado)
            );
        });
    }
}

mod rechaza {
    use std::future::Future;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Barrier, Mutex};
    use std::task::Poll;

    use recursos::rechaza::{Cola, Recepcion, Rechazo};
    use tokio::sync::mpsc;
    use tokio_test::task;

    /// Ofrece un trabajo sondeando `ofrece` una sola vez. Si no está listo
    /// en ese primer sondeo, la recepción se ha puesto a esperar sitio.
    fn ofrece_ya<T, C: Cola<T>>(recepcion: &Recepcion<T, C>, trabajo: T) -> Result<(), Rechazo<T>> {
        let mut ofrece = task::spawn(recepcion.ofrece(trabajo));
        match ofrece.poll() {
            Poll::Ready(resultado) => resultado,
            Poll::Pending => panic!(
                "`ofrece` se quedó esperando en lugar de responder: con la cola llena tiene que \
                 rechazar al momento (`try_send`), no esperar a que haya sitio (`send().await`)"
            ),
        }
    }

    #[test]
    fn acepta_mientras_cabe() {
        let (recepcion, mut buzon) = Recepcion::nueva(3);
        for i in 1..=3 {
            assert_eq!(ofrece_ya(&recepcion, i), Ok(()), "con sitio en la cola, el trabajo {i} debe entrar");
        }
        assert_eq!(recepcion.aceptadas(), 3, "aceptadas() debe contar los trabajos que entraron");
        assert_eq!(recepcion.rechazadas(), 0, "no se ha rechazado nada todavía");
        let recibidos: Vec<i32> = std::iter::from_fn(|| buzon.intenta_recibir()).collect();
        assert_eq!(recibidos, [1, 2, 3], "lo aceptado debe llegar al buzón, en orden");
    }

    #[test]
    fn rechaza_al_momento_cuando_esta_llena() {
        let (recepcion, _buzon) = Recepcion::nueva(2);
        assert_eq!(ofrece_ya(&recepcion, 1), Ok(()), "la cola de 2 está vacía: el trabajo 1 debe entrar");
        assert_eq!(ofrece_ya(&recepcion, 2), Ok(()), "queda un sitio en la cola de 2: el trabajo 2 debe entrar");
        let rechazo = ofrece_ya(&recepcion, 3);
        assert_eq!(
            rechazo,
            Err(Rechazo::Llena(3)),
            "con la cola llena, ofrece debe devolver Err(Rechazo::Llena(trabajo)), con el mismo trabajo"
        );
        let texto = rechazo.unwrap_err().to_string();
        assert!(
            texto.contains("llena"),
            "el Display de Rechazo::Llena ya viene escrito y dice que la cola está «llena»; dijo «{texto}»: ¿lo has \
             cambiado?"
        );
        assert_eq!(recepcion.rechazadas(), 1, "rechazadas() debe contar el rechazo");
        assert_eq!(recepcion.aceptadas(), 2, "aceptadas() debe contar los 2 trabajos que entraron, y no el rechazado");
    }

    #[test]
    fn no_pierde_nada() {
        let (recepcion, mut buzon) = Recepcion::nueva(10);
        let (mut aceptados, mut rechazados) = (Vec::new(), Vec::new());
        for i in 0..100 {
            match ofrece_ya(&recepcion, i) {
                Ok(()) => aceptados.push(i),
                Err(Rechazo::Llena(t)) => {
                    assert_eq!(t, i, "el rechazo debe devolver el trabajo que se ofreció");
                    rechazados.push(t);
                }
                Err(Rechazo::Cerrada(_)) => panic!("el buzón sigue vivo: la recepción no está cerrada"),
            }
        }
        assert_eq!(
            aceptados.len(),
            10,
            "con capacidad 10 y nadie sacando trabajos, se aceptaron {}: la cola tiene que ser \
             acotada (`mpsc::channel(capacidad)`)",
            aceptados.len()
        );
        let recibidos: Vec<i32> = std::iter::from_fn(|| buzon.intenta_recibir()).collect();
        assert_eq!(
            recibidos, aceptados,
            "todo lo que ofrece dio por aceptado tiene que llegar al buzón: nada se tira en silencio"
        );
        assert_eq!((recepcion.aceptadas(), recepcion.rechazadas()), (10, 90), "las cuentas no cuadran");
    }

    #[test]
    fn avisa_cuando_nadie_recibe() {
        let (recepcion, buzon) = Recepcion::nueva(4);
        drop(buzon);
        let rechazo = ofrece_ya(&recepcion, 7);
        assert_eq!(
            rechazo,
            Err(Rechazo::Cerrada(7)),
            "sin buzón nadie atenderá el trabajo: ofrece debe devolver Err(Rechazo::Cerrada(trabajo))"
        );
        assert_eq!(recepcion.rechazadas(), 1, "rechazadas() también cuenta los rechazos por cierre");
    }

    #[test]
    fn vuelve_a_aceptar_cuando_hay_sitio() {
        let (recepcion, mut buzon) = Recepcion::nueva(2);
        assert_eq!(ofrece_ya(&recepcion, 1), Ok(()), "la cola de 2 está vacía: el trabajo 1 debe entrar");
        assert_eq!(ofrece_ya(&recepcion, 2), Ok(()), "queda un sitio en la cola de 2: el trabajo 2 debe entrar");
        assert_eq!(
            ofrece_ya(&recepcion, 3),
            Err(Rechazo::Llena(3)),
            "con la cola de 2 llena, el trabajo 3 se rechaza al momento y vuelve: Err(Rechazo::Llena(3))"
        );
        assert_eq!(buzon.intenta_recibir(), Some(1), "el buzón recibe lo aceptado en orden: primero el 1");
        assert_eq!(
            ofrece_ya(&recepcion, 4),
            Ok(()),
            "al sacar un trabajo del buzón queda sitio otra vez: la capacidad es lo que hay en la \
             cola ahora, no lo que se ha aceptado en total"
        );
        assert_eq!(
            ofrece_ya(&recepcion, 5),
            Err(Rechazo::Llena(5)),
            "el 4 ocupó el sitio que dejó el 1: la cola vuelve a estar llena y el 5 se rechaza"
        );
        let recibidos: Vec<i32> = std::iter::from_fn(|| buzon.intenta_recibir()).collect();
        assert_eq!(recibidos, [2, 4], "en el buzón quedan el 2 y el 4, en el orden en que se aceptaron");
    }

    #[test]
    fn cerrada_aunque_este_llena() {
        let (recepcion, buzon) = Recepcion::nueva(2);
        assert_eq!(ofrece_ya(&recepcion, 1), Ok(()), "la cola de 2 está vacía: el trabajo 1 debe entrar");
        assert_eq!(ofrece_ya(&recepcion, 2), Ok(()), "queda un sitio en la cola de 2: el trabajo 2 debe entrar");
        drop(buzon);
        assert_eq!(
            ofrece_ya(&recepcion, 3),
            Err(Rechazo::Cerrada(3)),
            "la cola estaba llena, pero ya nadie recibe: el motivo es Cerrada, no Llena (volver \
             luego no servirá de nada). Si miras capacity() antes de enviar, una cola cerrada y \
             llena parece solo llena: deja que try_send te diga el motivo"
        );
        assert_eq!((recepcion.aceptadas(), recepcion.rechazadas()), (2, 1), "las cuentas no cuadran");
    }

    /// Qué mirada abre el hueco.
    #[derive(PartialEq)]
    enum Mirada {
        Capacidad,
        Cierre,
    }

    /// La cola de Tokio, con una costura: la primera vez que alguien mira
    /// `capacity()` (o `is_closed()`, según `tras`), justo después de mirar,
    /// ejecuta `entre_medias`. Es lo que pasaría si el sistema parase ese
    /// hilo en ese instante y otro actuase: el hueco entre mirar y actuar se
    /// abre siempre, no cuando la suerte quiere.
    struct ConCostura<T> {
        real: mpsc::Sender<T>,
        tras: Mirada,
        entre_medias: Mutex<Option<Box<dyn FnOnce() + Send>>>,
    }

    impl<T> ConCostura<T> {
        fn nueva(real: mpsc::Sender<T>, tras: Mirada, entre_medias: impl FnOnce() + Send + 'static) -> Self {
            ConCostura { real, tras, entre_medias: Mutex::new(Some(Box::new(entre_medias))) }
        }

        fn tras_mirar(&self, mirada: Mirada) {
            if mirada != self.tras {
                return;
            }
            let entre_medias = self.entre_medias.lock().unwrap().take();
            if let Some(entre_medias) = entre_medias {
                entre_medias();
            }
        }
    }

    impl<T> Cola<T> for ConCostura<T> {
        fn try_send(&self, trabajo: T) -> Result<(), mpsc::error::TrySendError<T>> {
            self.real.try_send(trabajo)
        }

        fn send(&self, trabajo: T) -> impl Future<Output = Result<(), mpsc::error::SendError<T>>> {
            self.real.send(trabajo)
        }

        fn try_reserve(&self) -> Result<mpsc::Permit<'_, T>, mpsc::error::TrySendError<()>> {
            self.real.try_reserve()
        }

        fn capacity(&self) -> usize {
            let libres = self.real.capacity();
            self.tras_mirar(Mirada::Capacidad);
            libres
        }

        fn is_closed(&self) -> bool {
            let cerrada = self.real.is_closed();
            self.tras_mirar(Mirada::Cierre);
            cerrada
        }
    }

    #[test]
    fn si_la_cola_se_llena_justo_despues_de_mirar() {
        // Una cola de 1, vacía. Si miras cuánto sitio queda, justo después
        // otro productor la llena.
        let (tx, mut rx) = mpsc::channel::<u32>(1);
        let (otro, disparada) = (tx.clone(), Arc::new(AtomicBool::new(false)));
        let d = disparada.clone();
        let recepcion = Recepcion::con_cola(ConCostura::nueva(tx, Mirada::Capacidad, move || {
            d.store(true, Ordering::SeqCst);
            otro.try_send(99).expect("la cola estaba vacía");
        }));
        let mut ofrece = task::spawn(recepcion.ofrece(1));
        let resultado = match ofrece.poll() {
            Poll::Ready(resultado) => resultado,
            Poll::Pending => panic!(
                "otro productor llenó la cola justo después de que mirases cuánto sitio quedaba (la prueba lo \
                 mete ahí, como podría hacerlo otro hilo), y `ofrece` se quedó esperando sitio. Mirar capacity() \
                 y luego enviar son dos pasos: entre los dos, la cola puede llenarse. try_send mira y mete de \
                 una vez, y si no cabe lo dice"
            ),
        };
        drop(ofrece);
        let en_la_cola: Vec<u32> = std::iter::from_fn(|| rx.try_recv().ok()).collect();
        if disparada.load(Ordering::SeqCst) {
            assert_eq!(
                (resultado, en_la_cola),
                (Err(Rechazo::Llena(1)), vec![99]),
                "otro productor llenó la cola justo después de que mirases: tu trabajo ya no cabía"
            );
            assert_eq!((recepcion.aceptadas(), recepcion.rechazadas()), (0, 1), "las cuentas no cuadran");
        } else {
            assert_eq!((resultado, en_la_cola), (Ok(()), vec![1]), "con la cola vacía, el trabajo entra");
        }
    }

    #[test]
    fn si_el_buzon_se_suelta_justo_despues_de_mirar() {
        // Si miras si la cola está cerrada, justo después se cierra.
        let (tx, rx) = mpsc::channel::<u32>(4);
        let buzon = Arc::new(Mutex::new(Some(rx)));
        let b = buzon.clone();
        let recepcion =
            Recepcion::con_cola(ConCostura::nueva(tx, Mirada::Cierre, move || drop(b.lock().unwrap().take())));
        let resultado = ofrece_ya(&recepcion, 2);
        if let Some(mut rx) = buzon.lock().unwrap().take() {
            // No miró nada: el buzón sigue ahí, y el trabajo tiene que haber entrado.
            assert_eq!((resultado, rx.try_recv().ok()), (Ok(()), Some(2)), "con sitio en la cola, el trabajo entra");
            return;
        }
        match resultado {
            Ok(()) => panic!("el buzón se soltó y `ofrece` dice que el trabajo entró: se ha perdido"),
            Err(Rechazo::Llena(_)) => panic!(
                "el buzón se soltó justo después de que mirases si la cola estaba cerrada, y `ofrece` dice \
                 Llena: el motivo es Cerrada. Lo que miraste ya no vale; deja que try_send te diga el motivo"
            ),
            Err(Rechazo::Cerrada(t)) => assert_eq!(t, 2, "el rechazo devuelve el trabajo ofrecido"),
        }
    }

    /// Con hilos de verdad: tres hilos ofrecen a la vez en una cola de 1
    /// mientras otro saca trabajos, así que la cola pasa de llena a vacía
    /// miles de veces. Comprueba lo que no depende del orden: ninguna oferta
    /// espera, cada trabajo aceptado llega una vez y en el orden de su hilo, y
    /// las cuentas cuadran (`aceptadas` y `rechazadas` se actualizan a la
    /// vez desde varios hilos).
    #[test]
    fn con_varios_hilos_a_la_vez() {
        const HILOS: u32 = 3;
        const OFERTAS: u32 = 4_000;
        let (recepcion, mut buzon) = Recepcion::nueva(1);
        let recepcion = Arc::new(recepcion);
        let salida = Arc::new(Barrier::new(HILOS as usize + 1));
        let acabaron = Arc::new(AtomicBool::new(false));
        let sacador = {
            let (salida, acabaron) = (salida.clone(), acabaron.clone());
            std::thread::spawn(move || {
                salida.wait();
                let mut recibidos = Vec::new();
                loop {
                    let fin = acabaron.load(Ordering::SeqCst);
                    match buzon.intenta_recibir() {
                        Some(t) => recibidos.push(t),
                        None if fin => break,
                        None => std::hint::spin_loop(),
                    }
                }
                recibidos
            })
        };
        let ofertas: Vec<_> = (0..HILOS)
            .map(|h| {
                let (recepcion, salida) = (recepcion.clone(), salida.clone());
                std::thread::spawn(move || {
                    salida.wait();
                    let (mut aceptados, mut rechazados) = (0_u64, 0_u64);
                    for i in 0..OFERTAS {
                        let trabajo = h * OFERTAS + i;
                        let mut ofrece = task::spawn(recepcion.ofrece(trabajo));
                        match ofrece.poll() {
                            Poll::Ready(Ok(())) => aceptados += 1,
                            Poll::Ready(Err(Rechazo::Llena(t))) => {
                                assert_eq!(t, trabajo, "el rechazo debe devolver el trabajo ofrecido");
                                rechazados += 1;
                            }
                            Poll::Ready(Err(Rechazo::Cerrada(_))) => {
                                panic!("el buzón sigue vivo: la recepción no está cerrada")
                            }
                            Poll::Pending => panic!(
                                "con varios hilos ofreciendo a la vez, una oferta se quedó esperando: \
                                 mirar si hay sitio (capacity) y luego enviar son dos pasos, y otro \
                                 hilo puede llenar la cola entre medias. try_send hace las dos cosas \
                                 de una vez"
                            ),
                        }
                    }
                    (aceptados, rechazados)
                })
            })
            .collect();
        let (mut aceptados, mut rechazados) = (0, 0);
        let mut fallo = None;
        for hilo in ofertas {
            match hilo.join() {
                Ok((a, r)) => {
                    aceptados += a;
                    rechazados += r;
                }
                Err(panico) => fallo = Some(panico),
            }
        }
        acabaron.store(true, Ordering::SeqCst);
        let recibidos = sacador.join().expect("el hilo que saca trabajos entró en pánico");
        if let Some(panico) = fallo {
            std::panic::resume_unwind(panico);
        }
        let total = u64::from(HILOS * OFERTAS);
        assert_eq!(
            aceptados + rechazados,
            total,
            "cada una de las {total} ofertas debe acabar aceptada o rechazada, una sola vez"
        );
        assert_eq!(
            recibidos.len() as u64,
            aceptados,
            "se aceptaron {aceptados} ofertas y al buzón llegaron {}: nada aceptado se pierde",
            recibidos.len()
        );
        for h in 0..HILOS {
            let suyos: Vec<u32> = recibidos.iter().copied().filter(|t| t / OFERTAS == h).collect();
            assert!(suyos.windows(2).all(|w| w[0] < w[1]), "los trabajos del hilo {h} llegaron desordenados");
        }
        assert_eq!(
            (recepcion.aceptadas(), recepcion.rechazadas()),
            (aceptados, rechazados),
            "las cuentas no cuadran con lo que devolvió ofrece: con varios hilos, cada cuenta \
             tiene que subir de una vez (fetch_add); leer y luego escribir pierde sumas"
        );
    }
}

mod despacha {
    use std::sync::Arc;

    use recursos::despacha::despacha;
    use tokio::sync::Semaphore;
    use tokio::sync::mpsc::error::TrySendError;
    use tokio::time::sleep;

    use crate::apoyo::{Vigia, en_pausa, ms, sin_colgarse};

    /// Un trabajo que se deja vigilar y tarda 10, 20 o 30 ms (virtuales).
    async fn atiende(vigia: Arc<Vigia>, t: u64) {
        vigia.entra();
        sleep(ms(10 * (1 + t % 3))).await;
        vigia.sale();
    }

    /// Ofrece 200 trabajos, diez cada 5 ms: mucho más deprisa de lo que se
    /// atienden. Devuelve (aceptados, rechazados).
    async fn pico(tx: &tokio::sync::mpsc::Sender<u64>) -> (usize, usize) {
        let (mut aceptados, mut rechazados) = (0, 0);
        for i in 0..200u64 {
            match tx.try_send(i) {
                Ok(()) => aceptados += 1,
                Err(TrySendError::Full(_)) => rechazados += 1,
                Err(TrySendError::Closed(_)) => panic!(
                    "la cola se cerró con emisores vivos: el despachador dejó de recibir antes de \
                     tiempo (una cola vacía no es una cola cerrada: usa `recv().await`)"
                ),
            }
            if i % 10 == 9 {
                sleep(ms(5)).await;
            }
        }
        (aceptados, rechazados)
    }

    #[test]
    fn atiende_todo_lo_que_acepto() {
        en_pausa("atiende_todo_lo_que_acepto", || async {
            let vigia = Vigia::nuevo();
            let v = vigia.clone();
            let (tx, despachador) = despacha(8, 3, move |t| atiende(v.clone(), t));
            let (aceptados, rechazados) = pico(&tx).await;
            drop(tx);
            let atendidos = sin_colgarse("el despachador", despachador).await.expect("el despachador entró en pánico");
            assert_eq!(
                vigia.terminados(),
                aceptados,
                "cuando el despachador devolvió su cuenta solo habían terminado {} de los {aceptados} \
                 trabajos aceptados: antes de devolver, espera a que terminen todos (JoinSet::join_next)",
                vigia.terminados()
            );
            assert_eq!(
                atendidos, aceptados,
                "el despachador dice que atendió {atendidos}, pero se aceptaron {aceptados}"
            );
            assert!(
                rechazados > 0,
                "se ofrecieron 200 trabajos mucho más deprisa de lo que se atienden y no se rechazó \
                 ninguno: los trabajos tienen que esperar en la cola acotada, no en tareas"
            );
        });
    }

    #[test]
    fn nunca_mas_de_simultaneos() {
        en_pausa("nunca_mas_de_simultaneos", || async {
            let vigia = Vigia::nuevo();
            let v = vigia.clone();
            let (tx, despachador) = despacha(8, 3, move |t| atiende(v.clone(), t));
            pico(&tx).await;
            drop(tx);
            sin_colgarse("el despachador", despachador).await.expect("el despachador entró en pánico");
            let max = vigia.max();
            assert!(
                max <= 3,
                "llegó a haber {max} trabajos en marcha a la vez con `simultaneos = 3`: pide un permiso \
                 antes de lanzar cada trabajo y suéltalo cuando termine"
            );
            assert_eq!(max, 3, "nunca hubo 3 trabajos a la vez: lánzalos en tareas, no uno detrás de otro");
        });
    }

    #[test]
    fn con_todo_ocupado_la_cola_se_llena() {
        en_pausa("con_todo_ocupado_la_cola_se_llena", || async {
            // Los trabajos no terminan hasta que la prueba abre la puerta.
            let puerta = Arc::new(Semaphore::new(0));
            let vigia = Vigia::nuevo();
            let (p, v) = (puerta.clone(), vigia.clone());
            let (tx, despachador) = despacha(8, 3, move |_t: u64| {
                let (p, v) = (p.clone(), v.clone());
                async move {
                    v.entra();
                    let _pasa = p.acquire().await.expect("la puerta no se cierra");
                    v.sale();
                }
            });
            let mut aceptados = 0;
            for i in 0..100 {
                if tx.try_send(i).is_ok() {
                    aceptados += 1;
                }
                // Deja correr al despachador entre oferta y oferta.
                tokio::task::yield_now().await;
            }
            assert!(
                aceptados <= 8 + 3 + 1,
                "con 3 trabajos en marcha que no terminan y una cola de 8, se aceptaron {aceptados} de \
                 100: el despachador no debe sacar más trabajos de la cola de los que puede atender"
            );
            puerta.add_permits(1_000);
            drop(tx);
            let atendidos = sin_colgarse("el despachador", despachador).await.expect("el despachador entró en pánico");
            assert_eq!(atendidos, aceptados, "se aceptaron {aceptados} y el despachador dice que atendió {atendidos}");
            assert_eq!(vigia.terminados(), aceptados, "no terminaron todos los trabajos aceptados");
        });
    }

    #[test]
    fn sigue_esperando_si_la_cola_se_vacia() {
        en_pausa("sigue_esperando_si_la_cola_se_vacia", || async {
            let vigia = Vigia::nuevo();
            let v = vigia.clone();
            let (tx, despachador) = despacha(4, 2, move |t| atiende(v.clone(), t));
            for i in 0..2 {
                tx.try_send(i).expect("la cola está vacía: tiene que caber");
            }
            // Da tiempo de sobra para terminarlos: la cola se queda vacía.
            sleep(ms(100)).await;
            for i in 2..4 {
                match tx.try_send(i) {
                    Ok(()) => {}
                    Err(TrySendError::Closed(_)) => panic!(
                        "después de vaciarse la cola, el despachador ya no recibía: una cola vacía no \
                         está cerrada. Sal del bucle solo cuando `recv().await` devuelva `None`"
                    ),
                    Err(TrySendError::Full(_)) => panic!("la cola está vacía: tiene que caber"),
                }
            }
            drop(tx);
            let atendidos = sin_colgarse("el despachador", despachador).await.expect("el despachador entró en pánico");
            assert_eq!(atendidos, 4, "se aceptaron 4 trabajos");
            assert_eq!(vigia.terminados(), 4, "se aceptaron 4 trabajos y no terminaron todos");
        });
    }

    #[test]
    fn termina_si_no_llega_nada() {
        en_pausa("termina_si_no_llega_nada", || async {
            let (tx, despachador) = despacha(4, 2, |_t: u64| async {});
            drop(tx);
            let atendidos = sin_colgarse("el despachador", despachador).await.expect("el despachador entró en pánico");
            assert_eq!(atendidos, 0, "sin trabajos, el despachador debe devolver 0");
        });
    }

    #[test]
    fn apagado_con_trabajos_en_la_cola() {
        en_pausa("apagado_con_trabajos_en_la_cola", || async {
            // Tres trabajos en marcha que no terminan hasta abrir la puerta, y
            // la cola llena detrás. Se cierra la cola con todo eso dentro.
            let puerta = Arc::new(Semaphore::new(0));
            let vigia = Vigia::nuevo();
            let (p, v) = (puerta.clone(), vigia.clone());
            let (tx, despachador) = despacha(4, 3, move |_t: u64| {
                let (p, v) = (p.clone(), v.clone());
                async move {
                    v.entra();
                    p.acquire().await.expect("la puerta no se cierra").forget();
                    v.sale();
                }
            });
            let mut aceptados = 0;
            for i in 0..20 {
                if tx.try_send(i).is_ok() {
                    aceptados += 1;
                }
                tokio::task::yield_now().await;
            }
            assert!(aceptados >= 4 + 3, "con 3 en marcha y una cola de 4 caben al menos 7; entraron {aceptados}");
            drop(tx); // la cola se cierra con trabajos dentro
            sleep(ms(10)).await;
            puerta.add_permits(1_000);
            let atendidos = sin_colgarse("el despachador", despachador).await.expect("el despachador entró en pánico");
            assert_eq!(
                (atendidos, vigia.terminados()),
                (aceptados, aceptados),
                "se aceptaron {aceptados} trabajos y, al cerrar la cola, varios seguían dentro: «cerrada» \
                 quiere decir que no llegará nada más, no que no quede nada. Sigue sacando con recv() \
                 hasta que devuelva None (no mires is_closed() para salir)"
            );
        });
    }

    #[test]
    fn mientras_sirve_no_acumula_lo_terminado() {
        en_pausa("mientras_sirve_no_acumula_lo_terminado", || async {
            // Un servicio que dura: trabajos que llegan y terminan, tandas y
            // tandas. Lo que ya terminó no debe quedarse en memoria hasta el
            // apagado. (Todo corre en el hilo de este runtime, así que sus
            // bytes vivos son los de la prueba y los del despachador.)
            let (tx, despachador) = despacha(8, 2, |_t: u64| async { tokio::task::yield_now().await });
            let mut enviados = 0u64;
            let mut tanda = async |n: u64| {
                for _ in 0..n {
                    tx.send(enviados).await.expect("el despachador dejó de recibir");
                    enviados += 1;
                }
                sleep(ms(1)).await; // con el reloj en pausa: hasta que no quede nada por hacer
            };
            tanda(200).await;
            let antes = crate::memoria::vivos_en_este_hilo();
            tanda(1_500).await;
            let crecio = crate::memoria::vivos_en_este_hilo() - antes;
            drop(tx);
            let atendidos = sin_colgarse("el despachador", despachador).await.expect("el despachador entró en pánico");
            assert_eq!(
                atendidos, 1_700,
                "`despacha` devuelve cuántos trabajos atendió: los 200 + 1500 = 1700 que se enviaron"
            );
            assert!(
                crecio < 32 * 1024,
                "después de atender 1 500 trabajos más, todos ya terminados, la memoria del servicio creció {crecio} \
                 bytes (unos {} por trabajo): lo terminado se queda guardado hasta el apagado. Un despachador corre \
                 días: recoge los trabajos que acaban mientras sirves (JoinSet::try_join_next en el bucle), no \
                 solo al final",
                crecio / 1_500
            );
        });
    }

    #[test]
    fn duerme_si_no_llega_nada() {
        en_pausa("duerme_si_no_llega_nada", || async {
            let vigia = Vigia::nuevo();
            let v = vigia.clone();
            let (tx, despachador) = despacha(4, 2, move |t| atiende(v.clone(), t));
            // Un segundo virtual sin trabajos. El reloj solo puede saltarlo si
            // el despachador duerme; si mira la cola en bucle, no avanza.
            sleep(ms(1_000)).await;
            tx.try_send(1).expect("la cola está vacía: tiene que caber");
            sleep(ms(100)).await;
            assert_eq!(vigia.terminados(), 1, "el trabajo que llegó tras un segundo sin nada no se atendió");
            drop(tx);
            let atendidos = sin_colgarse("el despachador", despachador).await.expect("el despachador entró en pánico");
            assert_eq!(atendidos, 1, "`despacha` devuelve cuántos trabajos atendió: el único que llegó");
        });
    }
}
