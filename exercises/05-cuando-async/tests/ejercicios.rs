//! Pruebas del capítulo 05. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/05-cuando-async`) y contra la solución
//! (`solutions/05-cuando-async`). Un módulo por ejercicio.
//!
//! Todas usan un runtime de un solo hilo (`#[tokio::test]`): ahí, si el
//! trabajo pesado bloquea el hilo, ninguna otra tarea puede avanzar, y eso se
//! ve sin medir tiempos. El testigo es un «ticker»: una tarea que suma uno a
//! un contador y cede el control, una y otra vez.

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
    const GUARDA_CONTRA_CUELGUES: Duration = Duration::from_secs(5);

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
}

mod aparta {
    use std::thread;

    use cuando_async::aparta::aparta;

    use crate::apoyo::{comprueba, lanza_ticker, trabajo_que_espera_al_ticker};

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
}

mod en_rayon {
    use std::thread;

    use cuando_async::en_rayon::en_rayon;
    use rayon::{ThreadPool, ThreadPoolBuilder};

    use crate::apoyo::{comprueba, lanza_ticker, trabajo_que_espera_al_ticker};

    fn pool() -> ThreadPool {
        ThreadPoolBuilder::new()
            .num_threads(1)
            .thread_name(|i| format!("rayon-prueba-{i}"))
            .build()
            .expect("no se pudo crear el pool de Rayon")
    }

    #[tokio::test]
    async fn devuelve_el_resultado() {
        let pool = pool();
        let producto = en_rayon(&pool, || (1..=10u64).product::<u64>()).await;
        assert_eq!(producto, 3_628_800, "en_rayon debe devolver lo que devuelve el trabajo");
    }

    #[tokio::test]
    async fn corre_en_el_pool_de_rayon() {
        let pool = pool();
        let nombre = en_rayon(&pool, || thread::current().name().map(String::from)).await;
        assert_eq!(
            nombre.as_deref(),
            Some("rayon-prueba-0"),
            "el trabajo debe correr en un hilo del pool que recibes (usa pool.spawn)"
        );
    }

    #[tokio::test]
    async fn las_otras_tareas_avanzan_mientras_trabaja() {
        let pool = pool();
        let hilo_del_ejecutor = thread::current().id();
        let (_, aviso, ticker) = lanza_ticker(3);
        let visto = en_rayon(&pool, trabajo_que_espera_al_ticker(hilo_del_ejecutor, aviso)).await;
        ticker.abort();
        comprueba(visto);
    }
}

mod trocea {
    use std::sync::atomic::Ordering;

    use cuando_async::trocea::{TROZO, cuenta_primos};

    use crate::apoyo::lanza_ticker;

    #[tokio::test]
    async fn cuenta_bien() {
        assert_eq!(cuenta_primos(0).await, 0);
        assert_eq!(cuenta_primos(100).await, 25, "hay 25 primos menores que 100");
        assert_eq!(cuenta_primos(10_000).await, 1229, "hay 1229 primos menores que 10 000");
        assert_eq!(cuenta_primos(2_500).await, 367, "el último trozo puede ser incompleto");
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
}
