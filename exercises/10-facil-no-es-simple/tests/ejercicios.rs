//! Pruebas del capítulo 10. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/10-facil-no-es-simple`) y contra la solución
//! (`solutions/10-facil-no-es-simple`). Un módulo por ejercicio.
//!
//! No miden tiempos. El truco de casi todas es un pool de Rayon de un solo
//! hilo y un «tapón»: un trabajo que ocupa ese hilo hasta que la prueba lo
//! quita. Mientras está puesto, lo que se manda a Rayon hace cola. Al
//! quitarlo, la prueba manda detrás un trabajo testigo y espera a que corra:
//! el único hilo atiende en orden de llegada los trabajos que vienen de fuera
//! del pool, así que cuando el testigo corre, todo lo anterior ya corrió. Así
//! se sabe exactamente cuántos trabajos entraron en Rayon en cada tanda.
//!
//! Los *futures* se sondean a mano con `tokio_test::task::spawn`, que no
//! necesita *runtime*. Las esperas con plazo ([`apoyo::GUARDA`]) son solo una
//! red contra cuelgues: con una solución correcta nunca se agotan.

mod apoyo {
    use std::future::Future;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;
    use std::time::Duration;

    use rayon::{ThreadPool, ThreadPoolBuilder};

    /// Red contra cuelgues, no un umbral.
    pub const GUARDA: Duration = Duration::from_secs(5);

    /// Un pool de Rayon de un hilo, que cuenta los pánicos que le llegan en
    /// lugar de abortar el proceso.
    pub struct Pool {
        pub pool: Arc<ThreadPool>,
        panicos: Arc<AtomicUsize>,
    }

    pub fn pool_de_un_hilo() -> Pool {
        let panicos = Arc::new(AtomicUsize::new(0));
        let cuenta = panicos.clone();
        let pool = ThreadPoolBuilder::new()
            .num_threads(1)
            .thread_name(|i| format!("rayon-prueba-{i}"))
            .panic_handler(move |_| {
                cuenta.fetch_add(1, Ordering::SeqCst);
            })
            .build()
            .expect("no se pudo crear el pool de Rayon");
        Pool { pool: Arc::new(pool), panicos }
    }

    /// Un tapón puesto en el único hilo del pool.
    pub struct Tapon {
        abre: mpsc::Sender<()>,
    }

    impl Tapon {
        /// Quita el tapón: el hilo empieza a atender su cola.
        pub fn quita(self) {
            let _ = self.abre.send(());
        }
    }

    impl Pool {
        /// Cuántos pánicos llegaron al `panic_handler` del pool.
        pub fn panicos(&self) -> usize {
            self.panicos.load(Ordering::SeqCst)
        }

        /// Ocupa el único hilo del pool hasta que se quite el tapón.
        pub fn tapona(&self) -> Tapon {
            let (abre, puerta) = mpsc::channel::<()>();
            let (listo, puesto) = mpsc::channel::<()>();
            self.pool.spawn(move || {
                let _ = listo.send(());
                let _ = puerta.recv_timeout(GUARDA);
            });
            puesto.recv_timeout(GUARDA).expect("el pool de Rayon no llegó a ejecutar el tapón");
            Tapon { abre }
        }

        /// Espera a que el pool haya ejecutado todo lo que se le mandó hasta
        /// ahora: manda un testigo detrás y espera a que corra.
        pub fn espera_a_que_se_vacie(&self, que: &str) {
            let (aviso, testigo) = mpsc::channel::<()>();
            self.pool.spawn(move || {
                let _ = aviso.send(());
            });
            testigo
                .recv_timeout(GUARDA)
                .unwrap_or_else(|_| panic!("el pool de Rayon no terminó {que}: algo se quedó bloqueado"));
        }

        /// Una tanda: tapa el pool, hace `sondeos`, lo destapa y espera a que
        /// se ejecute todo lo que se mandó durante la tanda.
        pub fn tanda(&self, sondeos: impl FnOnce()) {
            let tapon = self.tapona();
            sondeos();
            tapon.quita();
            self.espera_a_que_se_vacie("la tanda");
        }
    }

    /// Espera un *future* en una prueba con *runtime*, con la red contra
    /// cuelgues.
    pub async fn con_guarda<F: Future>(que: &str, futuro: F) -> F::Output {
        tokio::time::timeout(GUARDA, futuro)
            .await
            .unwrap_or_else(|_| panic!("{que} no terminó: se quedó esperando una respuesta que no llegó"))
    }
}

mod puente {
    use std::sync::mpsc;

    use dos_pools::puente::{FalloEnRayon, a_rayon};
    use tokio_test::{assert_ready, task};

    use crate::apoyo::{GUARDA, con_guarda, pool_de_un_hilo};

    #[tokio::test]
    async fn devuelve_el_resultado() {
        let p = pool_de_un_hilo();
        let resultado = con_guarda("a_rayon", a_rayon(&p.pool, || (1..=10u64).product::<u64>())).await;
        assert_eq!(resultado, Ok(3_628_800), "a_rayon debe devolver Ok con lo que devuelve el trabajo");
    }

    #[tokio::test]
    async fn corre_en_el_pool() {
        let p = pool_de_un_hilo();
        let nombre = con_guarda("a_rayon", a_rayon(&p.pool, || std::thread::current().name().map(String::from))).await;
        assert_eq!(
            nombre,
            Ok(Some("rayon-prueba-0".to_string())),
            "el trabajo debe correr en un hilo del pool que recibes"
        );
    }

    #[tokio::test]
    async fn el_panico_vuelve_como_error() {
        let p = pool_de_un_hilo();
        let resultado = con_guarda("a_rayon", a_rayon(&p.pool, || -> u32 { panic!("fallo en el cálculo") })).await;
        if resultado == Err(FalloEnRayon::SinRespuesta) {
            panic!(
                "el pánico llegó como SinRespuesta: se escapó al pool de Rayon y quien esperaba no \
                 supo por qué. Atrápalo dentro del cierre con std::panic::catch_unwind"
            );
        }
        assert_eq!(
            resultado,
            Err(FalloEnRayon::Panico("fallo en el cálculo".to_string())),
            "el error debe llevar el mensaje original del pánico (¿pasas &*carga a mensaje_de_panico?)"
        );
        let n = 7;
        let resultado = con_guarda("a_rayon", a_rayon(&p.pool, move || -> u32 { panic!("fallo número {n}") })).await;
        assert_eq!(
            resultado,
            Err(FalloEnRayon::Panico("fallo número 7".to_string())),
            "un pánico con formato lleva un String, no un &str: el mensaje también debe llegar"
        );
        assert_eq!(
            p.panicos(),
            0,
            "el pánico llegó al panic_handler del pool; un pool sin panic_handler habría abortado \
             el proceso entero"
        );
        let despues = con_guarda("a_rayon", a_rayon(&p.pool, || 1)).await;
        assert_eq!(despues, Ok(1), "después de un pánico, el pool debe seguir atendiendo trabajos");
    }

    #[test]
    fn no_bloquea_a_quien_espera() {
        let p = pool_de_un_hilo();
        let (abre, puerta) = mpsc::channel::<()>();
        // El trabajo no termina hasta que la prueba abre la puerta, y la
        // prueba no la abre hasta que el primer sondeo haya vuelto.
        let mut espera = task::spawn(a_rayon(&p.pool, move || puerta.recv_timeout(GUARDA).is_ok()));
        assert!(
            espera.poll().is_pending(),
            "el primer sondeo de a_rayon no volvió hasta que el trabajo terminó: bloqueó a quien \
             espera (¿pool.install?), y quien espera es un hilo trabajador de Tokio. Usa pool.spawn \
             y espera el oneshot con .await"
        );
        abre.send(()).expect("el trabajo sigue esperando la puerta");
        p.espera_a_que_se_vacie("el trabajo");
        assert!(espera.is_woken(), "el trabajo terminó y nadie despertó a quien esperaba");
        assert_eq!(assert_ready!(espera.poll()), Ok(true));
    }
}

mod tope {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::task::Poll;

    use dos_pools::tope::PuenteAcotado;
    use tokio_test::{assert_pending, assert_ready, task};

    use crate::apoyo::{con_guarda, pool_de_un_hilo};

    /// Un trabajo que anota que empezó y devuelve `i * 10`.
    fn contado(empezados: &Arc<AtomicUsize>, i: usize) -> impl FnOnce() -> usize + Send + 'static {
        let empezados = empezados.clone();
        move || {
            empezados.fetch_add(1, Ordering::SeqCst);
            i * 10
        }
    }

    #[tokio::test]
    async fn devuelve_el_resultado() {
        let p = pool_de_un_hilo();
        let puente = PuenteAcotado::nuevo(p.pool.clone(), 2);
        assert_eq!(con_guarda("ejecuta", puente.ejecuta(|| 6 * 7)).await, 42);
    }

    #[test]
    fn nunca_mas_de_k_en_vuelo() {
        let p = pool_de_un_hilo();
        let puente = PuenteAcotado::nuevo(p.pool.clone(), 2);
        let empezados = Arc::new(AtomicUsize::new(0));
        let mut esperas: Vec<_> = (0..6).map(|i| task::spawn(puente.ejecuta(contado(&empezados, i)))).collect();
        let mut resultados: Vec<Option<usize>> = vec![None; 6];
        let mut por_tanda = Vec::new();
        while resultados.iter().any(Option::is_none) {
            assert!(por_tanda.len() < 20, "tras 20 tandas aún quedan trabajos sin terminar: {resultados:?}");
            let antes = empezados.load(Ordering::SeqCst);
            p.tanda(|| {
                for (espera, resultado) in esperas.iter_mut().zip(resultados.iter_mut()) {
                    if resultado.is_none() {
                        if let Poll::Ready(valor) = espera.poll() {
                            *resultado = Some(valor);
                        }
                    }
                }
            });
            por_tanda.push(empezados.load(Ordering::SeqCst) - antes);
        }
        assert_eq!(resultados, (0..6).map(|i| Some(i * 10)).collect::<Vec<_>>(), "cada ejecuta devuelve lo suyo");
        let max = por_tanda.iter().copied().max().unwrap_or(0);
        assert!(
            max <= 2,
            "en una misma tanda entraron {max} trabajos en Rayon con un tope de 2 (trabajos por \
             tanda: {por_tanda:?}). Pide un permiso antes de pool.spawn y guárdalo: `let _ = ...` \
             lo suelta en esa misma línea"
        );
        assert_eq!(max, 2, "nunca hubo 2 trabajos en vuelo a la vez: el tope es 2, no 1 (tandas: {por_tanda:?})");
    }

    #[test]
    fn el_permiso_sigue_en_rayon_aunque_cancelen() {
        let p = pool_de_un_hilo();
        let puente = PuenteAcotado::nuevo(p.pool.clone(), 2);
        let empezados = Arc::new(AtomicUsize::new(0));
        let tapon = p.tapona();
        // Dos esperas mandan su trabajo a Rayon, que está tapado...
        let mut a = task::spawn(puente.ejecuta(contado(&empezados, 0)));
        let mut b = task::spawn(puente.ejecuta(contado(&empezados, 1)));
        assert_pending!(a.poll());
        assert_pending!(b.poll());
        // ...y se cancelan: sus futures se destruyen con los trabajos aún en
        // la cola de Rayon.
        drop(a);
        drop(b);
        // Llegan otras dos. Con el tope bien puesto no hay sitio para ellas.
        let mut c = task::spawn(puente.ejecuta(contado(&empezados, 2)));
        let mut d = task::spawn(puente.ejecuta(contado(&empezados, 3)));
        assert_pending!(c.poll());
        assert_pending!(d.poll());
        tapon.quita();
        p.espera_a_que_se_vacie("los trabajos");
        let dentro = empezados.load(Ordering::SeqCst);
        assert_eq!(
            dentro, 2,
            "con un tope de 2 entraron {dentro} trabajos en Rayon: al cancelar una espera, su permiso \
             volvió al semáforo aunque su trabajo seguía en la cola de Rayon. El permiso tiene que \
             viajar dentro del cierre que mandas a Rayon y soltarse cuando el trabajo termine"
        );
        // Los trabajos cancelados terminaron y devolvieron sus permisos.
        p.tanda(|| {
            assert_pending!(c.poll());
            assert_pending!(d.poll());
        });
        assert_eq!(empezados.load(Ordering::SeqCst), 4, "c y d debían entrar en cuanto quedó sitio");
        assert_eq!(assert_ready!(c.poll()), 20);
        assert_eq!(assert_ready!(d.poll()), 30);
    }
}

mod salta {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, mpsc};

    use dos_pools::salta::a_rayon_si_esperan;
    use tokio_test::{assert_pending, assert_ready, task};

    use crate::apoyo::{GUARDA, con_guarda, pool_de_un_hilo};

    #[tokio::test]
    async fn devuelve_el_resultado() {
        let p = pool_de_un_hilo();
        let resultado = con_guarda("a_rayon_si_esperan", a_rayon_si_esperan(&p.pool, || 6 * 7)).await;
        assert_eq!(resultado, 42);
    }

    #[test]
    fn se_salta_si_nadie_espera() {
        let p = pool_de_un_hilo();
        let corrio = Arc::new(AtomicBool::new(false));
        let c = corrio.clone();
        let tapon = p.tapona();
        let mut espera = task::spawn(a_rayon_si_esperan(&p.pool, move || c.store(true, Ordering::SeqCst)));
        assert_pending!(espera.poll());
        drop(espera); // cancelada mientras su trabajo hacía cola en Rayon
        tapon.quita();
        p.espera_a_que_se_vacie("el trabajo");
        assert!(
            !corrio.load(Ordering::SeqCst),
            "el trabajo se calculó aunque ya nadie esperaba su resultado: justo antes de empezarlo, \
             mira tx.is_closed()"
        );
        assert_eq!(p.panicos(), 0, "el trabajo saltado no debe entrar en pánico");
    }

    #[test]
    fn no_se_salta_si_esperan() {
        let p = pool_de_un_hilo();
        let corrio = Arc::new(AtomicBool::new(false));
        let c = corrio.clone();
        let tapon = p.tapona();
        let mut espera = task::spawn(a_rayon_si_esperan(&p.pool, move || {
            c.store(true, Ordering::SeqCst);
            5
        }));
        assert_pending!(espera.poll());
        tapon.quita();
        p.espera_a_que_se_vacie("el trabajo");
        assert!(corrio.load(Ordering::SeqCst), "alguien esperaba el resultado: el trabajo tenía que ejecutarse");
        assert_eq!(assert_ready!(espera.poll()), 5);
    }

    #[test]
    fn si_ya_empezo_termina_sin_ruido() {
        let p = pool_de_un_hilo();
        let corrio = Arc::new(AtomicBool::new(false));
        let c = corrio.clone();
        let (empezo, empezado) = mpsc::channel::<()>();
        let (abre, puerta) = mpsc::channel::<()>();
        let mut espera = task::spawn(a_rayon_si_esperan(&p.pool, move || {
            let _ = empezo.send(());
            let _ = puerta.recv_timeout(GUARDA);
            c.store(true, Ordering::SeqCst);
            7
        }));
        assert_pending!(espera.poll());
        empezado.recv_timeout(GUARDA).expect("el trabajo no llegó a empezar");
        drop(espera); // cancelada con el trabajo ya en marcha
        let _ = abre.send(());
        p.espera_a_que_se_vacie("el trabajo");
        assert!(corrio.load(Ordering::SeqCst), "un trabajo que ya empezó no se puede interrumpir: termina");
        assert_eq!(
            p.panicos(),
            0,
            "el trabajo entró en pánico al enviar un resultado que ya nadie esperaba; sin un \
             panic_handler, Rayon habría abortado el proceso. Si el envío falla, ignóralo"
        );
    }
}
