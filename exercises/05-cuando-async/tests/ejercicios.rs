//! Pruebas del capítulo 05. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/05-cuando-async`) y contra la solución
//! (`solutions/05-cuando-async`). Un módulo por ejercicio.
//!
//! Todas usan un runtime de un solo hilo (`#[tokio::test]`): ahí, si el
//! trabajo pesado bloquea el hilo, ninguna otra tarea puede avanzar, y eso se
//! ve sin medir tiempos. El testigo es un «ticker»: una tarea que suma uno a
//! un contador y cede el control, una y otra vez.
//!
//! Para saber si la tarea que espera duerme, las pruebas `espera_dormida` la
//! sondean a mano con un despertador que cuenta (`tokio_test::task::spawn`),
//! retienen el trabajo y adelantan el reloj en pausa: nadie debe despertarla
//! hasta que el trabajo termina. Y `trocea` cuenta cuántas veces cede el
//! cálculo y, con un `cumple` que anota cada número, cuántos revisa entre
//! una cesión y la siguiente. Ninguna prueba puede colgarse: lo que espera tiene una guarda
//! ([`GUARDA_CONTRA_CUELGUES`](apoyo::GUARDA_CONTRA_CUELGUES)) y un mensaje
//! que dice qué esperaba.

mod apoyo {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::mpsc;
    use std::thread::{self, ThreadId};
    use std::time::Duration;

    use tokio::task::JoinHandle;

    /// Lanza el ticker. Cuando llega a `aviso` ticks, lo avisa por un canal
    /// estándar, que puede esperar un hilo que no es del runtime.
    pub fn lanza_ticker(aviso: u64) -> (Arc<AtomicU64>, mpsc::Receiver<()>, JoinHandle<()>) {
        let ticks = Arc::new(AtomicU64::new(0));
        let (tx, rx) = mpsc::channel();
        let contador = ticks.clone();
        let tarea = tokio::spawn(async move {
            let mut tx = Some(tx);
            loop {
                let n = contador.fetch_add(1, Ordering::SeqCst) + 1;
                if n >= aviso
                    && let Some(tx) = tx.take()
                {
                    let _ = tx.send(());
                }
                tokio::task::yield_now().await;
            }
        });
        (ticks, rx, tarea)
    }

    /// Lo que vio el trabajo «pesado» de las pruebas.
    #[derive(Debug, PartialEq, Eq)]
    pub enum Visto {
        /// El ticker avanzó mientras el trabajo estaba en marcha.
        ElTickerAvanzo,
        /// El trabajo corrió en el hilo del ejecutor: lo bloqueó.
        CorrioEnElEjecutor,
        /// El trabajo corrió en otro hilo, pero el ticker no avanzó.
        ElTickerNoAvanzo,
    }

    /// Solo evita que una prueba se quede colgada para siempre si el hilo del
    /// ejecutor está bloqueado esperando el trabajo. No es un umbral de
    /// tiempo: con una solución correcta el ticker avisa en microsegundos y
    /// esta espera nunca se agota.
    pub const GUARDA_CONTRA_CUELGUES: Duration = Duration::from_secs(2);

    /// Un trabajo que bloquea su hilo hasta que el ticker avanza. Si lo
    /// ejecutan en el hilo del ejecutor, lo dice sin esperar (esperar ahí
    /// sería un bloqueo mutuo).
    pub fn trabajo_que_espera_al_ticker(
        hilo_del_ejecutor: ThreadId,
        aviso: mpsc::Receiver<()>,
    ) -> impl FnOnce() -> Visto + Send + 'static {
        move || {
            if thread::current().id() == hilo_del_ejecutor {
                return Visto::CorrioEnElEjecutor;
            }
            match aviso.recv_timeout(GUARDA_CONTRA_CUELGUES) {
                Ok(()) => Visto::ElTickerAvanzo,
                Err(_) => Visto::ElTickerNoAvanzo,
            }
        }
    }

    /// Explica en español lo que salió mal.
    pub fn comprueba(visto: Visto) {
        match visto {
            Visto::ElTickerAvanzo => {}
            Visto::CorrioEnElEjecutor => panic!(
                "el trabajo corrió en el hilo del ejecutor y lo bloqueó: ninguna otra tarea \
                 pudo avanzar mientras tanto. `tokio::spawn` crea una tarea, no un hilo; \
                 manda el trabajo a otro hilo"
            ),
            Visto::ElTickerNoAvanzo => panic!(
                "el trabajo corrió en otro hilo, pero el hilo del ejecutor se quedó esperando \
                 a que terminara, así que ninguna otra tarea avanzó. No esperes bloqueando: \
                 espera con `.await`"
            ),
        }
    }

    /// Un trabajo que no termina hasta que la prueba lo suelta (o hasta la
    /// guarda contra cuelgues), y entonces da 42.
    pub fn trabajo_retenido() -> (mpsc::Sender<()>, impl FnOnce() -> u32 + Send + 'static) {
        let (suelta, soltado) = mpsc::channel::<()>();
        (suelta, move || {
            let _ = soltado.recv_timeout(GUARDA_CONTRA_CUELGUES);
            42
        })
    }

    /// Comprueba que `espera` (la tarea que espera el trabajo retenido)
    /// duerme mientras el trabajo sigue en marcha: la sondea una vez con un
    /// despertador que cuenta, deja correr el ejecutor y 60 ms de reloj en
    /// pausa, y mira que nadie la haya despertado. Después suelta el trabajo
    /// y comprueba que entonces sí la despiertan, y que da 42.
    pub async fn comprueba_que_duerme(
        que: &str,
        suelta: mpsc::Sender<()>,
        espera: impl std::future::Future<Output = u32>,
    ) {
        let mut espera = tokio_test::task::spawn(espera);
        assert!(
            espera.poll().is_pending(),
            "{que}: el primer sondeo ya trajo el resultado, y el trabajo no podía terminar hasta que la \
             prueba lo soltara (o pasara la guarda de {}): el sondeo se quedó bloqueado esperándolo. Un \
             sondeo debe volver enseguida con Pending",
            medidas::duracion(GUARDA_CONTRA_CUELGUES)
        );
        for _ in 0..3 {
            for _ in 0..10 {
                tokio::task::yield_now().await;
            }
            tokio::time::advance(Duration::from_millis(20)).await;
        }
        assert!(
            !espera.is_woken(),
            "{que}: el trabajo sigue en marcha y nadie ha respondido, pero la tarea que espera ya se \
             despertó: está sondeando (try_recv, is_finished, yield_now o sleep cortos en un bucle). \
             Espera con `.await` sobre el JoinHandle o el receptor del oneshot: así duerme hasta que \
             llega el resultado"
        );
        suelta.send(()).expect("el trabajo ya no esperaba a que lo soltaran");
        let inicio = std::time::Instant::now();
        while !espera.is_woken() {
            assert!(
                inicio.elapsed() < GUARDA_CONTRA_CUELGUES,
                "{que}: el trabajo terminó, pero nadie despertó a la tarea que esperaba su resultado"
            );
            thread::sleep(Duration::from_millis(1));
        }
        match espera.poll() {
            std::task::Poll::Ready(valor) => assert_eq!(valor, 42, "{que}: el trabajo dio 42"),
            std::task::Poll::Pending => panic!("{que}: la despertaron, pero al sondearla aún no tenía el resultado"),
        }
    }
}

/// Una carga de pánico que no es texto.
#[derive(Debug, PartialEq, Eq)]
struct Codigo(u32);

/// `aparta` enseña:
/// 1. Devuelve lo que devuelve el trabajo (`devuelve_el_resultado`).
/// 2. El trabajo corre fuera del hilo del ejecutor y las demás tareas siguen
///    avanzando (`las_otras_tareas_avanzan_mientras_trabaja`), en el pool de
///    hilos bloqueantes de Tokio (`corre_en_el_pool_bloqueante_de_tokio`).
/// 3. La tarea que espera duerme: no se despierta hasta que el trabajo
///    termina (`espera_dormida`).
/// 4. Un pánico del trabajo sale de `aparta` tal cual, con su carga original,
///    sea texto o no (`propaga_el_panico_original`, `propaga_cualquier_carga_de_panico`).
mod aparta {
    use std::thread;

    use cuando_async::aparta::aparta;

    use crate::Codigo;
    use crate::apoyo::{comprueba, comprueba_que_duerme, lanza_ticker, trabajo_que_espera_al_ticker, trabajo_retenido};

    #[tokio::test]
    async fn devuelve_el_resultado() {
        let suma = aparta(|| (1..=100u64).sum::<u64>()).await;
        assert_eq!(suma, 5050, "aparta debe devolver lo que devuelve el trabajo");
    }

    #[tokio::test]
    async fn las_otras_tareas_avanzan_mientras_trabaja() {
        let hilo_del_ejecutor = thread::current().id();
        let (_, aviso, ticker) = lanza_ticker(3);
        let visto = aparta(trabajo_que_espera_al_ticker(hilo_del_ejecutor, aviso)).await;
        ticker.abort();
        comprueba(visto);
    }

    #[test]
    fn corre_en_el_pool_bloqueante_de_tokio() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .thread_name("pool-bloqueante-de-tokio")
            .enable_all()
            .build()
            .expect("no se pudo crear el runtime de la prueba");
        let nombre = runtime.block_on(aparta(|| thread::current().name().map(String::from)));
        assert_eq!(
            nombre.as_deref(),
            Some("pool-bloqueante-de-tokio"),
            "el trabajo debe correr en el pool de hilos bloqueantes de Tokio (spawn_blocking), no en un \
             hilo que crees tú ni en otro pool"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn espera_dormida() {
        let (suelta, trabajo) = trabajo_retenido();
        comprueba_que_duerme("aparta", suelta, aparta(trabajo)).await;
    }

    #[tokio::test]
    async fn propaga_el_panico_original() {
        let tarea = tokio::spawn(aparta(|| -> u32 { panic!("fallo en el cálculo") }));
        let error = tarea.await.expect_err("si el trabajo entra en pánico, aparta también");
        let panico = error.into_panic();
        let mensaje =
            panico.downcast_ref::<&str>().copied().or_else(|| panico.downcast_ref::<String>().map(String::as_str));
        assert_eq!(
            mensaje,
            Some("fallo en el cálculo"),
            "el pánico debe llevar el mensaje original del trabajo, no otro que lo envuelva: \
             relánzalo con std::panic::resume_unwind(error.into_panic())"
        );
    }

    #[tokio::test]
    async fn propaga_cualquier_carga_de_panico() {
        let tarea = tokio::spawn(aparta(|| -> u32 { std::panic::panic_any(Codigo(7)) }));
        let error = tarea.await.expect_err("si el trabajo entra en pánico, aparta también");
        assert_eq!(
            error.into_panic().downcast_ref::<Codigo>(),
            Some(&Codigo(7)),
            "el trabajo entró en pánico con panic_any(Codigo(7)), que no es texto: aparta debe relanzar \
             esa misma carga, sin convertirla en un mensaje (std::panic::resume_unwind)"
        );
        let tarea = tokio::spawn(aparta(|| -> u32 { panic!("fallo {} de {}", std::hint::black_box(3), 4) }));
        let error = tarea.await.expect_err("si el trabajo entra en pánico, aparta también");
        assert_eq!(
            error.into_panic().downcast_ref::<String>().map(String::as_str),
            Some("fallo 3 de 4"),
            "un panic! con argumentos lleva un String: aparta debe relanzar ese mismo String"
        );
    }
}

/// `en_rayon` enseña:
/// 1. Devuelve lo que devuelve el trabajo (`devuelve_el_resultado`).
/// 2. El trabajo corre en el pool de Rayon que recibes (`corre_en_el_pool_de_rayon`).
/// 3. Mientras tanto, las demás tareas avanzan: `pool.install` bloquearía el
///    hilo del ejecutor (`las_otras_tareas_avanzan_mientras_trabaja`).
/// 4. La tarea que espera duerme hasta que llega la respuesta por el
///    `oneshot` (`espera_dormida`).
/// 5. Si la tarea que espera se cancela antes de que el trabajo acabe, el
///    hilo de Rayon no entra en pánico al enviar (`sobrevive_si_nadie_espera`).
/// 6. Un pánico del trabajo sale de `en_rayon` con su carga original, y el
///    hilo de Rayon no se entera (`propaga_el_panico_del_trabajo`).
mod en_rayon {
    use std::sync::{Arc, Mutex};
    use std::thread;

    use cuando_async::en_rayon::en_rayon;
    use rayon::{ThreadPool, ThreadPoolBuilder};

    use crate::Codigo;
    use crate::apoyo::{comprueba, comprueba_que_duerme, lanza_ticker, trabajo_que_espera_al_ticker, trabajo_retenido};

    /// Un pool de un hilo que anota los pánicos de sus trabajos en vez de
    /// abortar el proceso (lo que Rayon hace por defecto).
    fn pool() -> (ThreadPool, Arc<Mutex<Vec<String>>>) {
        let panicos = Arc::new(Mutex::new(Vec::new()));
        let anota = panicos.clone();
        let pool = ThreadPoolBuilder::new()
            .num_threads(1)
            .thread_name(|i| format!("rayon-prueba-{i}"))
            .panic_handler(move |carga| {
                let texto = carga
                    .downcast_ref::<&str>()
                    .map(|t| t.to_string())
                    .or_else(|| carga.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "(sin texto)".into());
                anota.lock().unwrap().push(texto);
            })
            .build()
            .expect("no se pudo crear el pool de Rayon");
        (pool, panicos)
    }

    #[tokio::test]
    async fn devuelve_el_resultado() {
        let (pool, _) = pool();
        let producto = en_rayon(&pool, || (1..=10u64).product::<u64>()).await;
        assert_eq!(producto, 3_628_800, "en_rayon debe devolver lo que devuelve el trabajo");
    }

    #[tokio::test]
    async fn corre_en_el_pool_de_rayon() {
        let (pool, _) = pool();
        let nombre = en_rayon(&pool, || thread::current().name().map(String::from)).await;
        assert_eq!(
            nombre.as_deref(),
            Some("rayon-prueba-0"),
            "el trabajo debe correr en un hilo del pool que recibes (usa pool.spawn, no rayon::spawn)"
        );
    }

    #[tokio::test]
    async fn las_otras_tareas_avanzan_mientras_trabaja() {
        let (pool, _) = pool();
        let hilo_del_ejecutor = thread::current().id();
        let (_, aviso, ticker) = lanza_ticker(3);
        let visto = en_rayon(&pool, trabajo_que_espera_al_ticker(hilo_del_ejecutor, aviso)).await;
        ticker.abort();
        comprueba(visto);
    }

    #[tokio::test(start_paused = true)]
    async fn espera_dormida() {
        let (pool, _) = pool();
        let (suelta, trabajo) = trabajo_retenido();
        comprueba_que_duerme("en_rayon", suelta, en_rayon(&pool, trabajo)).await;
    }

    #[tokio::test]
    async fn propaga_el_panico_del_trabajo() {
        let (pool, panicos) = pool();
        let pool = Arc::new(pool);
        let en_la_tarea = Arc::clone(&pool);
        let tarea =
            tokio::spawn(async move { en_rayon(&en_la_tarea, || -> u32 { std::panic::panic_any(Codigo(9)) }).await });
        let error = tarea.await.expect_err("si el trabajo entra en pánico, en_rayon también");
        assert_eq!(
            error.into_panic().downcast_ref::<Codigo>(),
            Some(&Codigo(9)),
            "el trabajo entró en pánico con panic_any(Codigo(9)): en_rayon debe entrar en pánico con esa \
             misma carga, como aparta. Dentro de pool.spawn el pánico no llega a la tarea (sin un \
             panic_handler, Rayon aborta el proceso entero): atrápalo en el cierre con catch_unwind, \
             mándalo por el oneshot y relánzalo en la tarea con resume_unwind"
        );
        // El pool tiene un solo hilo: esto corre cuando el trabajo ha terminado del todo.
        pool.install(|| ());
        assert_eq!(
            *panicos.lock().unwrap(),
            Vec::<String>::new(),
            "el pánico del trabajo llegó al hilo de Rayon: atrápalo dentro del cierre (catch_unwind)"
        );
    }

    #[tokio::test]
    async fn sobrevive_si_nadie_espera() {
        let (pool, panicos) = pool();
        let (suelta, trabajo) = trabajo_retenido();
        let mut espera = tokio_test::task::spawn(en_rayon(&pool, trabajo));
        assert!(espera.poll().is_pending(), "el trabajo sigue retenido: aún no puede haber resultado");
        // La tarea que esperaba se cancela: su future se suelta a medias.
        drop(espera);
        suelta.send(()).expect("el trabajo ya no esperaba a que lo soltaran");
        // El pool tiene un solo hilo: esto corre cuando el trabajo (y su envío) ha terminado.
        pool.install(|| ());
        assert_eq!(
            *panicos.lock().unwrap(),
            Vec::<String>::new(),
            "el hilo de Rayon entró en pánico al enviar el resultado a una tarea que ya no lo esperaba \
             (sin un panic_handler, Rayon aborta el proceso entero). Si el envío falla, ignóralo: \
             `let _ = tx.send(...)`"
        );
    }
}

/// `cuenta_primos` enseña:
/// 1. Cuenta los primos de `0..hasta`, sin incluir `hasta`, también cuando
///    el último trozo es incompleto o `hasta` es primo (`cuenta_bien`).
/// 2. Cede el control en cada trozo: otra tarea del mismo hilo avanza
///    mientras cuenta (`cede_el_control_en_cada_trozo`), y nunca revisa más
///    de [`TROZO`] números sin ceder, contados uno a uno con el `cumple` de
///    la prueba, también con `hasta` en el borde de un trozo, uno por debajo
///    y uno por encima (`revisa_como_mucho_un_trozo_entre_cesiones`),
///    calculando en la propia tarea: cada vez que cede queda lista para
///    seguir, sin esperar a otro hilo (`cede_al_menos_una_vez_por_trozo`).
mod trocea {
    use std::sync::atomic::Ordering;
    use std::task::Poll;

    use std::cell::RefCell;
    use std::rc::Rc;

    use cuando_async::trocea::{TROZO, cuenta_primos, cuenta_si};

    use crate::apoyo::lanza_ticker;

    #[tokio::test]
    async fn cuenta_bien() {
        for (hasta, primos) in [(0, 0), (1, 0), (2, 0), (3, 1), (100, 25), (1_000, 168), (1_001, 168), (1_009, 168)] {
            assert_eq!(
                cuenta_primos(hasta).await,
                primos,
                "hay {primos} primos menores que {hasta} (los de 0..{hasta}: {hasta} no cuenta)"
            );
        }
        assert_eq!(cuenta_primos(1_010).await, 169, "hay 169 primos menores que 1010 (1009 es primo)");
        assert_eq!(cuenta_primos(2_500).await, 367, "el último trozo puede ser incompleto");
        assert_eq!(cuenta_primos(7_919).await, 999, "hay 999 primos menores que 7919 (que es el primo 1000)");
        assert_eq!(cuenta_primos(10_000).await, 1229, "hay 1229 primos menores que 10 000");
    }

    /// Sondea `cuenta_si(hasta, ...)` a mano con un `cumple` que anota cada
    /// número que revisa. Devuelve cuántos revisó en cada sondeo (entre una
    /// cesión y la siguiente), todos los que revisó y lo que contó.
    async fn trozos_de(hasta: u64) -> (Vec<Vec<u64>>, u64) {
        let revisados = Rc::new(RefCell::new(Vec::new()));
        let anota = Rc::clone(&revisados);
        let mut cuenta = tokio_test::task::spawn(cuenta_si(hasta, move |n| {
            anota.borrow_mut().push(n);
            n % 3 == 0
        }));
        let mut trozos = Vec::new();
        loop {
            let sondeo = cuenta.poll();
            trozos.push(revisados.borrow_mut().drain(..).collect::<Vec<u64>>());
            if let Poll::Ready(cuantos) = sondeo {
                return (trozos, cuantos);
            }
            assert!(
                trozos.len() as u64 <= hasta + 1,
                "cuenta_si({hasta}, ...) cedió más de {} veces sin terminar",
                hasta + 1
            );
            // Un sondeo nuevo para la tarea de la prueba (y presupuesto nuevo).
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn revisa_como_mucho_un_trozo_entre_cesiones() {
        // Justo en el borde de un trozo, uno por debajo y uno por encima.
        for hasta in [0, 1, TROZO - 1, TROZO, TROZO + 1, 2 * TROZO - 1, 2 * TROZO, 2 * TROZO + 1, 5 * TROZO + 7] {
            let (trozos, cuantos) = trozos_de(hasta).await;
            if let Some(largo) = trozos.iter().find(|t| t.len() as u64 > TROZO) {
                panic!(
                    "con hasta = {hasta}, revisaste {} números seguidos sin ceder (del {} al {}): como mucho \
                     {TROZO}, y después, yield_now().await. ¿Un rango cerrado (`inicio..=inicio + TROZO` son \
                     {} números) o un `>` donde iba un `>=`?",
                    largo.len(),
                    largo[0],
                    largo[largo.len() - 1],
                    TROZO + 1
                );
            }
            let mut todos: Vec<u64> = trozos.concat();
            todos.sort();
            if !todos.iter().copied().eq(0..hasta) {
                let rango = match (todos.first(), todos.last()) {
                    (Some(a), Some(b)) => format!(", del {a} al {b}"),
                    _ => String::new(),
                };
                panic!(
                    "con hasta = {hasta}, `cumple` debe llamarse una vez por cada número de 0..{hasta} ({hasta} no \
                     entra): se llamó {} veces{rango}",
                    todos.len()
                );
            }
            assert_eq!(
                cuantos,
                hasta.div_ceil(3),
                "de 0..{hasta}, hay {} múltiplos de 3: `cuenta_si` devuelve cuántos números cumplen",
                hasta.div_ceil(3)
            );
        }
    }

    #[tokio::test]
    async fn cede_el_control_en_cada_trozo() {
        let hasta = 20 * TROZO;
        let (ticks, _, ticker) = lanza_ticker(u64::MAX);
        assert_eq!(cuenta_primos(hasta).await, 2262, "hay 2262 primos menores que 20 000");
        let vistos = ticks.load(Ordering::SeqCst);
        ticker.abort();
        // En un runtime de un hilo, el ticker solo avanza cuando el cálculo
        // cede: una vez por trozo, como poco.
        assert!(
            vistos >= hasta / TROZO - 1,
            "mientras se contaban {hasta} números, el ticker avanzó {vistos} veces; esperaba \
             al menos {}: cede el control con yield_now().await después de cada trozo de {TROZO}",
            hasta / TROZO - 1
        );
    }

    #[tokio::test]
    async fn cede_al_menos_una_vez_por_trozo() {
        // Cada vez que el cálculo cede, su sondeo vuelve con Pending: se cuentan.
        let hasta = 50 * TROZO;
        let mut cuenta = tokio_test::task::spawn(cuenta_primos(hasta));
        let mut cesiones = 0u64;
        let primos = loop {
            if let Poll::Ready(primos) = cuenta.poll() {
                break primos;
            }
            cesiones += 1;
            assert!(cesiones <= hasta, "cuenta_primos({hasta}) cedió más de {hasta} veces sin terminar");
            // Un sondeo nuevo para la tarea de la prueba (y presupuesto nuevo).
            tokio::task::yield_now().await;
            assert!(
                cuenta.is_woken(),
                "cuenta_primos devolvió Pending y no pidió que la volvieran a sondear: está esperando \
                 algo de fuera (¿mandaste el cálculo a otro hilo?). Aquí el cálculo se hace en la \
                 tarea, a trozos, y entre trozo y trozo solo cede: yield_now().await"
            );
        };
        assert_eq!(primos, 5133, "hay 5133 primos menores que 50 000");
        assert!(
            cesiones >= hasta / TROZO,
            "al revisar {hasta} números el cálculo cedió {cesiones} veces: revisa como mucho {TROZO} \
             números entre una cesión y la siguiente, así que debe ceder al menos {} veces",
            hasta / TROZO
        );
    }
}
