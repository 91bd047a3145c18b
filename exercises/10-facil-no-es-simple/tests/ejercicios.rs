//! Pruebas del capítulo 10. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/10-facil-no-es-simple`) y contra la solución
//! (`solutions/10-facil-no-es-simple`). Un módulo por ejercicio.
//!
//! Lo que se comprueba, ejercicio por ejercicio (cada propiedad tiene una
//! prueba que falla si solo esa se rompe):
//!
//! - `puente`: devuelve el valor; el trabajo corre en el pool que recibes; un
//!   pánico vuelve como `Panico` con su mensaje, sea un `&str`, un `String` o
//!   una carga que no es texto, y no llega al `panic_handler` del pool; el
//!   primer sondeo no bloquea; quien espera duerme (nadie lo despierta hasta
//!   que llega el resultado) y se le despierta cuando llega.
//! - `tope`: devuelve el valor; nunca hay más de `max_en_vuelo` trabajos en
//!   Rayon, y se llega a ese tope; el permiso viaja dentro del cierre (cancelar
//!   la espera no lo devuelve); un trabajo que entra en pánico también lo
//!   devuelve; quien espera un permiso duerme y se le despierta cuando se
//!   suelta uno.
//! - `salta`: devuelve el valor; se salta exactamente los trabajos cuya espera
//!   se canceló antes de empezar, también con varios en cola; un trabajo ya
//!   empezado termina sin pánico, también si quien espera se va justo
//!   después de que el trabajo mire `is_closed()` (el `oneshot` del crate
//!   tiene una costura: la prueba para el hilo de Rayon en ese instante);
//!   quien espera duerme; y con cancelaciones en momentos al azar, con hilos
//!   de verdad, nunca hay un pánico ni un valor equivocado.
//!
//! No miden tiempos. El truco de casi todas es un pool de Rayon de un solo
//! hilo y un «tapón»: un trabajo que ocupa ese hilo hasta que la prueba lo
//! quita. Mientras está puesto, lo que se manda a Rayon hace cola. Al
//! quitarlo, la prueba manda detrás un trabajo testigo y espera a que corra:
//! el único hilo atiende en orden de llegada los trabajos que vienen de fuera
//! del pool, así que cuando el testigo corre, todo lo anterior ya corrió. Así
//! se sabe exactamente cuántos trabajos entraron en Rayon en cada tanda.
//!
//! Los *futures* se sondean a mano con `tokio_test::task::spawn`, que cuenta
//! quién los despierta. Las pruebas de «duerme» corren con el reloj de Tokio
//! en pausa: dejan pasar 50 ms virtuales con el trabajo aún sin terminar, y
//! quien espera no debe haberse despertado ni una vez (un bucle con
//! `try_recv` y `yield_now`, o que duerme 1 ms y vuelve a mirar, sí lo hace).
//! Las esperas con plazo ([`apoyo::GUARDA`]) son solo una red contra
//! cuelgues: con una solución correcta nunca se agotan.

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
        pool_de(1)
    }

    pub fn pool_de(hilos: usize) -> Pool {
        let panicos = Arc::new(AtomicUsize::new(0));
        let cuenta = panicos.clone();
        let pool = ThreadPoolBuilder::new()
            .num_threads(hilos)
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

    /// Lo que se deja pasar, en tiempo virtual, con el trabajo sin terminar,
    /// para ver si alguien despierta a quien espera.
    pub const SIN_NOVEDAD: Duration = Duration::from_millis(50);

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
    use tokio_test::{assert_pending, assert_ready, task};

    use crate::apoyo::{GUARDA, SIN_NOVEDAD, con_guarda, pool_de_un_hilo};

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

    #[tokio::test]
    async fn una_carga_que_no_es_texto_tambien_vuelve() {
        // `std::panic::panic_any` entra en pánico con cualquier valor: aquí,
        // un número. No hay mensaje de texto, pero sigue siendo un pánico.
        let p = pool_de_un_hilo();
        let resultado = con_guarda("a_rayon", a_rayon(&p.pool, || -> u32 { std::panic::panic_any(404_u16) })).await;
        assert_eq!(
            resultado,
            Err(FalloEnRayon::Panico("pánico sin mensaje de texto".to_string())),
            "un pánico cuya carga no es texto (panic_any(404_u16)) también debe volver como \
             Panico, con lo que da mensaje_de_panico; SinRespuesta quiere decir que el cierre \
             entró en pánico otra vez al leer la carga, o que no la atrapaste"
        );
        assert_eq!(p.panicos(), 0, "el pánico llegó al panic_handler del pool: no se atrapó dentro del cierre");
    }

    #[tokio::test(start_paused = true)]
    async fn duerme_hasta_que_llega_el_resultado() {
        let p = pool_de_un_hilo();
        let (abre, puerta) = mpsc::channel::<()>();
        let mut espera = task::spawn(a_rayon(&p.pool, move || puerta.recv_timeout(GUARDA).is_ok()));
        assert_pending!(espera.poll());
        // 50 ms virtuales con el trabajo sin terminar: nada que hacer.
        tokio::time::sleep(SIN_NOVEDAD).await;
        assert!(
            !espera.is_woken(),
            "quien espera se despertó sin que el trabajo hubiera terminado: está mirando una y otra \
             vez (¿try_recv con yield_now, o un sleep corto en bucle?). Espera el oneshot con .await: \
             el emisor lo despierta una sola vez, cuando manda el resultado"
        );
        abre.send(()).expect("el trabajo sigue esperando la puerta");
        p.espera_a_que_se_vacie("el trabajo");
        assert!(espera.is_woken(), "el trabajo terminó y nadie despertó a quien esperaba");
        assert_eq!(
            assert_ready!(espera.poll()),
            Ok(true),
            "el trabajo terminó y dio true: a quien espera debe llegarle como Ok(true)"
        );
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
        assert_eq!(
            assert_ready!(espera.poll()),
            Ok(true),
            "el trabajo terminó y dio true: a quien espera debe llegarle como Ok(true)"
        );
    }
}

mod tope {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::task::Poll;

    use dos_pools::tope::PuenteAcotado;
    use tokio_test::{assert_pending, assert_ready, task};

    use crate::apoyo::{SIN_NOVEDAD, con_guarda, pool_de_un_hilo};

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
        assert_eq!(
            con_guarda("ejecuta", puente.ejecuta(|| 6 * 7)).await,
            42,
            "`ejecuta` debe devolver el resultado del trabajo, 6 * 7 = 42"
        );
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
                    if resultado.is_none()
                        && let Poll::Ready(valor) = espera.poll()
                    {
                        *resultado = Some(valor);
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
        assert_eq!(
            assert_ready!(c.poll()),
            20,
            "cada `ejecuta` devuelve el resultado de su trabajo: c (el trabajo 2) da 2 * 10 = 20"
        );
        assert_eq!(
            assert_ready!(d.poll()),
            30,
            "cada `ejecuta` devuelve el resultado de su trabajo: d (el trabajo 3) da 3 * 10 = 30"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn quien_espera_un_permiso_duerme() {
        let p = pool_de_un_hilo();
        let puente = PuenteAcotado::nuevo(p.pool.clone(), 1);
        let empezados = Arc::new(AtomicUsize::new(0));
        let tapon = p.tapona();
        let mut a = task::spawn(puente.ejecuta(contado(&empezados, 0)));
        let mut b = task::spawn(puente.ejecuta(contado(&empezados, 1)));
        assert_pending!(a.poll()); // se lleva el único permiso
        assert_pending!(b.poll()); // espera un permiso
        tokio::time::sleep(SIN_NOVEDAD).await;
        assert!(
            !b.is_woken(),
            "quien espera un permiso se despertó sin que nadie soltara ninguno: está mirando una y \
             otra vez (¿try_acquire con yield_now, o un sleep corto en bucle?). Espera con \
             acquire_owned().await: el semáforo lo despierta cuando hay un permiso para él"
        );
        tapon.quita();
        p.espera_a_que_se_vacie("el primer trabajo");
        assert!(b.is_woken(), "el primer trabajo terminó y soltó su permiso, y nadie despertó a quien lo esperaba");
        assert_eq!(empezados.load(Ordering::SeqCst), 1, "con un tope de 1, el segundo trabajo no podía entrar aún");
        // Ahora sí: permiso y trabajo a Rayon. Con el pool tapado, para que
        // el trabajo no pueda acabar dentro de este mismo sondeo.
        p.tanda(|| assert_pending!(b.poll()));
        assert_eq!(
            assert_ready!(b.poll()),
            10,
            "cada `ejecuta` devuelve el resultado de su trabajo: b (el trabajo 1) da 1 * 10 = 10"
        );
        assert_eq!(
            assert_ready!(a.poll()),
            0,
            "cada `ejecuta` devuelve el resultado de su trabajo: a (el trabajo 0) da 0 * 10 = 0"
        );
    }

    #[test]
    fn un_trabajo_que_entra_en_panico_devuelve_su_permiso() {
        let p = pool_de_un_hilo();
        let puente = PuenteAcotado::nuevo(p.pool.clone(), 1);
        let empezados = Arc::new(AtomicUsize::new(0));
        p.tanda(|| {
            let mut a = task::spawn(puente.ejecuta(|| -> usize { panic!("fallo en el cálculo") }));
            assert_pending!(a.poll());
            // Nadie volverá a sondear `a`: su trabajo va a entrar en pánico.
            std::mem::forget(a);
        });
        assert_eq!(p.panicos(), 1, "el trabajo tenía que entrar en pánico en Rayon");
        let mut b = task::spawn(puente.ejecuta(contado(&empezados, 1)));
        p.tanda(|| {
            let _ = b.poll();
        });
        assert_eq!(
            empezados.load(Ordering::SeqCst),
            1,
            "después de un trabajo que entró en pánico, con un tope de 1, el siguiente no pudo \
             entrar: el permiso se perdió. Si lo devuelves a mano después de trabajo() (forget y \
             add_permits), un pánico se lo salta; un permiso que viaja en el cierre se suelta \
             también al deshacerse la pila"
        );
        assert_eq!(
            assert_ready!(b.poll()),
            10,
            "tras el pánico del primero, el segundo trabajo entra y devuelve lo suyo, 1 * 10 = 10"
        );
    }
}

mod salta {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, mpsc};

    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    use dos_pools::salta::a_rayon_si_esperan;
    use tokio_test::{assert_pending, assert_ready, task};

    use crate::apoyo::{GUARDA, SIN_NOVEDAD, con_guarda, pool_de, pool_de_un_hilo};

    #[tokio::test]
    async fn devuelve_el_resultado() {
        let p = pool_de_un_hilo();
        let resultado = con_guarda("a_rayon_si_esperan", a_rayon_si_esperan(&p.pool, || 6 * 7)).await;
        assert_eq!(
            resultado, 42,
            "con alguien esperando, `a_rayon_si_esperan` debe devolver el resultado del trabajo, 6 * 7 = 42"
        );
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
        assert_eq!(
            assert_ready!(espera.poll()),
            5,
            "alguien esperaba: el trabajo corre y su resultado, 5, llega a quien espera"
        );
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

    #[test]
    fn se_salta_solo_los_cancelados() {
        let p = pool_de_un_hilo();
        let corrieron: Vec<Arc<AtomicBool>> = (0..4).map(|_| Arc::new(AtomicBool::new(false))).collect();
        let tapon = p.tapona();
        let mut esperas: Vec<_> = corrieron
            .iter()
            .enumerate()
            .map(|(i, corrio)| {
                let c = corrio.clone();
                task::spawn(a_rayon_si_esperan(&p.pool, move || {
                    c.store(true, Ordering::SeqCst);
                    i
                }))
            })
            .collect();
        for espera in &mut esperas {
            assert_pending!(espera.poll());
        }
        // Se cancelan la segunda y la cuarta; la primera y la tercera siguen esperando.
        let cuarta = esperas.pop().expect("hay cuatro");
        drop(cuarta);
        let segunda = esperas.remove(1);
        drop(segunda);
        tapon.quita();
        p.espera_a_que_se_vacie("los trabajos");
        let vistos: Vec<bool> = corrieron.iter().map(|c| c.load(Ordering::SeqCst)).collect();
        assert_eq!(
            vistos,
            [true, false, true, false],
            "con cuatro trabajos en cola y la segunda y la cuarta espera canceladas, deben correr \
             exactamente la primera y la tercera: cada trabajo mira su propio emisor"
        );
        assert_eq!(
            assert_ready!(esperas[0].poll()),
            0,
            "la primera espera, que nadie canceló, recibe el resultado de su propio trabajo, 0"
        );
        assert_eq!(
            assert_ready!(esperas[1].poll()),
            2,
            "la tercera espera, que nadie canceló, recibe el resultado de su propio trabajo, 2"
        );
        assert_eq!(
            p.panicos(),
            0,
            "un trabajo saltado no debe entrar en pánico, ni el de una espera cancelada al enviar"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn duerme_hasta_que_llega_el_resultado() {
        let p = pool_de_un_hilo();
        let (abre, puerta) = mpsc::channel::<()>();
        let mut espera = task::spawn(a_rayon_si_esperan(&p.pool, move || puerta.recv_timeout(GUARDA).is_ok()));
        assert_pending!(espera.poll());
        tokio::time::sleep(SIN_NOVEDAD).await;
        assert!(
            !espera.is_woken(),
            "quien espera se despertó sin que el trabajo hubiera terminado: está mirando una y otra \
             vez. Espera el oneshot con .await"
        );
        abre.send(()).expect("el trabajo sigue esperando la puerta");
        p.espera_a_que_se_vacie("el trabajo");
        assert!(espera.is_woken(), "el trabajo terminó y nadie despertó a quien esperaba");
        assert!(assert_ready!(espera.poll()), "el trabajo terminó y dio true: a quien espera debe llegarle true");
    }

    /// El hueco entre mirar y enviar, abierto a propósito. `crate::oneshot` es
    /// el de Tokio con una costura: aquí, el hilo de Rayon se para justo
    /// después de su k-ésima llamada a `is_closed()`, la prueba cancela la
    /// espera en ese instante y lo deja seguir. Con k = 1, 2 y 3 cubre
    /// cualquier número de miradas: pase lo que pase después de mirar, nada
    /// entra en pánico.
    #[test]
    fn quien_espera_se_va_justo_despues_de_que_mires() {
        for k in 1..=3 {
            let p = pool_de_un_hilo();
            let (miro, ha_mirado) = mpsc::channel::<()>();
            let (sigue, puede_seguir) = mpsc::channel::<()>();
            p.pool.spawn(move || {
                let mut miradas = 0;
                dos_pools::oneshot::tras_cada_is_closed(move || {
                    miradas += 1;
                    if miradas == k {
                        let _ = miro.send(());
                        let _ = puede_seguir.recv_timeout(GUARDA);
                    }
                });
            });
            p.espera_a_que_se_vacie("la costura");
            // Con el pool tapado, el trabajo espera en la cola hasta que
            // quien espera haya hecho su primer sondeo.
            let tapon = p.tapona();
            let mut espera = task::spawn(a_rayon_si_esperan(&p.pool, move || 7));
            assert_pending!(espera.poll());
            tapon.quita();
            // Hasta que el hilo de Rayon mire por k-ésima vez o, si no mira
            // tantas veces, hasta que termine.
            let inicio = std::time::Instant::now();
            loop {
                if ha_mirado.recv_timeout(Duration::from_millis(1)).is_ok() {
                    drop(espera); // se va justo después de que mires
                    let _ = sigue.send(());
                    break;
                }
                if espera.is_woken() {
                    break;
                }
                assert!(inicio.elapsed() < GUARDA, "el trabajo no terminó ni llegó a mirar is_closed()");
            }
            p.espera_a_que_se_vacie("el trabajo");
            assert_eq!(
                p.panicos(),
                0,
                "quien esperaba se fue justo después de tu llamada número {k} a is_closed() (la prueba para el \
                 hilo de Rayon en ese instante y cancela la espera), y el trabajo entró en pánico al enviar. \
                 Mirar y enviar son dos pasos: entre los dos, quien espera puede irse, y con hilos de verdad \
                 pasa. Envía sin más y, si el envío falla, ignóralo (`let _ = tx.send(...)`)"
            );
        }
    }

    /// Con hilos de verdad: cancelaciones en momentos al azar, antes, durante
    /// o después del cálculo. Sea cual sea el orden, ningún pánico llega a
    /// Rayon, un resultado que llega es el bueno y ningún trabajo corre dos
    /// veces. No mide tiempos: solo mira lo que pasó.
    #[test]
    fn con_cancelaciones_al_azar_nunca_hay_panico() {
        let p = pool_de(2);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_time()
            .build()
            .expect("no se pudo crear el runtime");
        let corridos = Arc::new(AtomicUsize::new(0));
        let (llegados, a_tiempo) = runtime.block_on(async {
            let mut tareas = Vec::new();
            for i in 0..300_u64 {
                let (pool, corridos) = (p.pool.clone(), corridos.clone());
                tareas.push(tokio::spawn(async move {
                    let espera = a_rayon_si_esperan(&pool, move || {
                        corridos.fetch_add(1, Ordering::SeqCst);
                        // Unos microsegundos de cálculo, para que alguna
                        // cancelación caiga en medio.
                        let mut x = i;
                        for _ in 0..(i % 7) * 200 {
                            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                        }
                        let _ = x;
                        i
                    });
                    tokio::time::timeout(Duration::from_micros(i % 40), espera).await.ok().map(|v| (i, v))
                }));
            }
            let (mut llegados, mut a_tiempo) = (0, 0);
            for tarea in tareas {
                let salida = con_guarda("una espera con plazo", tarea).await.expect("una tarea entró en pánico");
                if let Some((i, v)) = salida {
                    assert_eq!(v, i, "el resultado que llegó no es el de su trabajo");
                    a_tiempo += 1;
                }
                llegados += 1;
            }
            (llegados, a_tiempo)
        });
        p.espera_a_que_se_vacie("los trabajos");
        assert_eq!(
            llegados, 300,
            "las 300 tareas deben terminar, con su resultado o con su plazo vencido; si alguna entra en pánico, su \
             mensaje está más arriba"
        );
        assert_eq!(
            p.panicos(),
            0,
            "algún trabajo entró en pánico en Rayon al enviar un resultado que ya nadie esperaba \
             (mirar is_closed() y luego enviar no basta: entre las dos cosas quien espera puede irse). \
             Ignora el error del envío"
        );
        let corridos = corridos.load(Ordering::SeqCst);
        assert!(corridos <= 300, "hubo {corridos} cálculos para 300 trabajos: alguno corrió dos veces");
        assert!(corridos >= a_tiempo, "llegaron {a_tiempo} resultados y solo se calcularon {corridos}");
    }
}
