//! Pruebas del capítulo 07. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/07-joinhandle`) y contra la solución
//! (`solutions/07-joinhandle`). Un módulo por ejercicio.
//!
//! Casi todas usan el reloj en pausa de Tokio: un `sleep` de una hora no
//! tarda nada, porque el reloj salta al siguiente temporizador cuando no hay
//! nada más que hacer. Para saber si una tarea sigue viva miran dos cosas:
//! una guarda dentro de su *future*, que cuenta cuándo se suelta, y el número
//! de tareas vivas del runtime.
//!
//! Las de `con_varios_hilos_...` usan un runtime de dos hilos trabajadores y
//! el reloj de verdad: la tarea bloquea su hilo 200 ms dentro de un sondeo,
//! y el plazo (20 ms) vence mientras tanto. Aceptan los dos desenlaces
//! correctos (si la máquina va tan cargada que la tarea no llega a empezar
//! antes del plazo, lo correcto es cancelarla), así que no dependen de la
//! velocidad de la máquina.
//!
//! Para saber si tu función espera dormida, algunas pruebas la «conducen» a
//! mano ([`conduce`]): la sondean con un despertador que anota cuándo la
//! despiertan y adelantan el reloj de milisegundo en milisegundo. Una función
//! que espera bien solo se despierta cuando pasa algo (termina una tarea,
//! vence el plazo); una que sondea en un bucle se despierta sin motivo, y la
//! prueba lo dice en vez de quedarse colgada.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::Poll;
use std::time::Duration;

use tokio::time::Instant;

/// Falla con `mensaje` si las dos duraciones no son iguales, y las escribe
/// como el libro («10 ms», no «10ms»).
#[track_caller]
fn misma_duracion(obtenida: Duration, esperada: Duration, mensaje: &str) {
    assert!(
        obtenida == esperada,
        "{mensaje} (esperaba {}, no {})",
        medidas::duracion(esperada),
        medidas::duracion(obtenida)
    );
}

/// Se suelta cuando se suelta el *future* que la lleva: al terminar la tarea
/// o al completarse su cancelación.
struct Guarda(Arc<AtomicUsize>);

impl Drop for Guarda {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn contador() -> Arc<AtomicUsize> {
    Arc::new(AtomicUsize::new(0))
}

fn cuenta(c: &AtomicUsize) -> usize {
    c.load(Ordering::SeqCst)
}

fn tareas_vivas() -> usize {
    tokio::runtime::Handle::current().metrics().num_alive_tasks()
}

/// Una carga de pánico que no es texto.
#[derive(Debug, PartialEq, Eq)]
struct Codigo(u32);

/// Lo que pasó al conducir un *future* con [`conduce`].
struct Conducido<T> {
    valor: T,
    /// Cuándo se despertó, contado desde el principio (reloj en pausa).
    despertares: Vec<Duration>,
    /// Cuánto reloj pasó hasta que terminó.
    tardado: Duration,
}

/// Más despertares que estos en una prueba son un bucle que sondea.
const MAX_DESPERTARES: usize = 50;

/// Sondea `futuro` con un despertador que anota cuándo lo despiertan. Entre
/// sondeo y sondeo deja correr a las demás tareas y, si nadie lo ha
/// despertado, adelanta el reloj en pausa un milisegundo. No pasa de
/// `limite` de reloj ni de [`MAX_DESPERTARES`] despertares: nunca se cuelga.
async fn conduce<F: Future>(que: &str, limite: Duration, futuro: F) -> Conducido<F::Output> {
    let inicio = Instant::now();
    let mut tarea = tokio_test::task::spawn(futuro);
    let mut despertares = Vec::new();
    loop {
        if let Poll::Ready(valor) = tarea.poll() {
            return Conducido { valor, despertares, tardado: inicio.elapsed() };
        }
        loop {
            // Que corran las tareas listas y lleguen sus avisos, sin mover el reloj.
            for _ in 0..5 {
                tokio::task::yield_now().await;
            }
            if tarea.is_woken() {
                break;
            }
            assert!(
                inicio.elapsed() < limite,
                "{que} seguía sin terminar al cabo de {} de reloj; nadie lo despertó",
                medidas::duracion(limite)
            );
            tokio::time::advance(Duration::from_millis(1)).await;
        }
        despertares.push(inicio.elapsed());
        assert!(
            despertares.len() <= MAX_DESPERTARES,
            "{que} se despertó más de {MAX_DESPERTARES} veces (las primeras, a los {}): \
             sondea en un bucle en vez de esperar dormido con `.await`",
            medidas::duraciones(&despertares[..5])
        );
    }
}

/// «10», «10 y 50», «10, 20 y 50».
fn enumera(numeros: &[u64]) -> String {
    let textos: Vec<String> = numeros.iter().map(u64::to_string).collect();
    match textos.split_last() {
        Some((ultimo, resto)) if !resto.is_empty() => format!("{} y {ultimo}", resto.join(", ")),
        _ => textos.concat(),
    }
}

/// Comprueba que `c` solo se despertó en los milisegundos de `eventos`, en
/// los que pasa algo (termina una tarea, vence el plazo).
fn comprueba_que_duerme<T>(que: &str, c: &Conducido<T>, eventos: &[u64]) {
    for t in &c.despertares {
        let ms = t.as_millis() as u64;
        assert!(
            eventos.contains(&ms) && t.subsec_nanos() % 1_000_000 == 0,
            "{que} se despertó a los {}, y entonces no había pasado nada (solo pasa algo a los \
             {} ms). Todos sus despertares: {}. Espera con `.await` sobre lo que de \
             verdad esperas; no sondees con sleep cortos ni con yield_now",
            medidas::duracion(*t),
            enumera(eventos),
            medidas::duraciones(&c.despertares)
        );
    }
    assert!(
        c.despertares.len() <= 2 * eventos.len(),
        "{que} se despertó {} veces ({}) para {} sucesos: sobran despertares",
        c.despertares.len(),
        medidas::duraciones(&c.despertares),
        eventos.len()
    );
}

/// `con_plazo` enseña:
/// 1. Si la tarea termina antes del plazo, da `Terminada(v)` en ese mismo
///    instante, sin esperar al plazo (`terminada_si_llega_a_tiempo`,
///    `terminada_justo_antes_del_plazo`).
/// 2. Al vencer el plazo, la tarea queda cancelada: no sigue corriendo
///    desligada (`agotada_cancela_la_tarea`).
/// 3. Vuelve con la cancelación completada: el *future* ya se soltó
///    (`agotada_vuelve_con_la_cancelacion_completada`).
/// 4. Un pánico llega como `Fallida`, con su carga intacta, aunque no sea
///    texto (`un_panico_llega_como_fallida`).
/// 5. Una tarea que acaba justo en el plazo no pierde su valor: o
///    `Terminada(v)`, o `Agotada` sin haber llegado al final
///    (`en_el_plazo_justo_no_se_pierde_nada`).
/// 6. Espera dormida: solo se despierta cuando acaba la tarea o vence el
///    plazo (`espera_dormida`).
/// 7. Con varios hilos trabajadores, una tarea que está a mitad de su último
///    sondeo cuando vence el plazo termina bien: `Terminada(v)`, no `Agotada`
///    (`con_varios_hilos_lo_que_acaba_tras_el_plazo_no_se_pierde`).
mod plazo {
    use std::time::Duration;

    use tokio::time::{Instant, sleep};

    use super::{Codigo, Guarda, comprueba_que_duerme, conduce, contador, cuenta, misma_duracion, tareas_vivas};
    use joinhandle::plazo::{Final, con_plazo};

    const PLAZO: Duration = Duration::from_millis(50);
    const LIMITE: Duration = Duration::from_secs(1);

    #[tokio::test(start_paused = true)]
    async fn terminada_si_llega_a_tiempo() {
        let c = conduce(
            "con_plazo",
            LIMITE,
            con_plazo(PLAZO, async {
                sleep(Duration::from_millis(7)).await;
                7
            }),
        )
        .await;
        assert!(
            matches!(c.valor, Final::Terminada(7)),
            "la tarea dio 7 a los 7 ms: esperaba Terminada(7), no {:?}",
            c.valor
        );
        misma_duracion(
            c.tardado,
            Duration::from_millis(7),
            "la tarea terminó a los 7 ms: vuelve en ese momento, sin esperar a que venza el plazo",
        );
    }

    #[tokio::test(start_paused = true)]
    async fn terminada_justo_antes_del_plazo() {
        let c = conduce(
            "con_plazo",
            LIMITE,
            con_plazo(PLAZO, async {
                sleep(PLAZO - Duration::from_millis(1)).await;
                49
            }),
        )
        .await;
        assert!(
            matches!(c.valor, Final::Terminada(49)),
            "la tarea dio 49 a los 49 ms, antes del plazo de 50 ms: esperaba Terminada(49), no {:?}",
            c.valor
        );
        misma_duracion(c.tardado, PLAZO - Duration::from_millis(1), "la tarea terminó a los 49 ms: vuelve entonces");
    }

    #[tokio::test(start_paused = true)]
    async fn agotada_cancela_la_tarea() {
        let soltadas = contador();
        let llego_al_final = contador();
        let (guarda, final_de_la_tarea) = (Guarda(soltadas.clone()), llego_al_final.clone());
        let c = conduce(
            "con_plazo",
            LIMITE,
            con_plazo(PLAZO, async move {
                let _guarda = guarda;
                sleep(Duration::from_secs(3600)).await;
                final_de_la_tarea.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }),
        )
        .await;
        assert!(matches!(c.valor, Final::Agotada), "la tarea tarda una hora: esperaba Agotada, no {:?}", c.valor);
        misma_duracion(c.tardado, PLAZO, "con_plazo debe volver justo al vencer el plazo");

        tokio::task::yield_now().await; // el runtime atiende las cancelaciones pendientes
        assert_eq!(
            tareas_vivas(),
            0,
            "devolviste Agotada, pero la tarea sigue viva: soltar el JoinHandle no la cancela; llama a abort()"
        );
        assert_eq!(cuenta(&soltadas), 1, "el future de la tarea cancelada debe haberse soltado");
        sleep(Duration::from_secs(7200)).await;
        assert_eq!(cuenta(&llego_al_final), 0, "la tarea siguió corriendo después del plazo y llegó al final");
    }

    #[tokio::test(start_paused = true)]
    async fn agotada_vuelve_con_la_cancelacion_completada() {
        let soltadas = contador();
        let guarda = Guarda(soltadas.clone());
        let c = conduce(
            "con_plazo",
            LIMITE,
            con_plazo(PLAZO, async move {
                let _guarda = guarda;
                sleep(Duration::from_secs(3600)).await;
            }),
        )
        .await;
        assert!(matches!(c.valor, Final::Agotada), "esperaba Agotada, no {:?}", c.valor);
        // Sin ceder el control: al volver, la cancelación ya debe estar hecha.
        assert_eq!(
            cuenta(&soltadas),
            1,
            "al volver con Agotada, la tarea aún no se ha soltado: abort() solo pide la cancelación; \
             espera después el JoinHandle para que se complete"
        );
        assert_eq!(tareas_vivas(), 0, "al volver con Agotada no debe quedar ninguna tarea viva");
    }

    #[tokio::test(start_paused = true)]
    async fn un_panico_llega_como_fallida() {
        let c = conduce(
            "con_plazo",
            LIMITE,
            con_plazo(PLAZO, async {
                sleep(Duration::from_millis(10)).await;
                if std::hint::black_box(true) {
                    panic!("este trabajo falla a propósito");
                }
                1
            }),
        )
        .await;
        match c.valor {
            Final::Fallida(error) => assert!(error.is_panic(), "el error debe ser un pánico: {error:?}"),
            otro => panic!("la tarea entró en pánico: esperaba Fallida, no {otro:?}"),
        }
        misma_duracion(c.tardado, Duration::from_millis(10), "la tarea falló a los 10 ms: vuelve entonces");

        // Un pánico cuya carga no es texto llega igual, y con su carga.
        let c = conduce(
            "con_plazo",
            LIMITE,
            con_plazo(PLAZO, async {
                sleep(Duration::from_millis(3)).await;
                if std::hint::black_box(true) {
                    std::panic::panic_any(Codigo(503));
                }
                1
            }),
        )
        .await;
        match c.valor {
            Final::Fallida(error) => {
                assert!(error.is_panic(), "el error debe ser un pánico: {error:?}");
                assert_eq!(
                    error.into_panic().downcast_ref::<Codigo>(),
                    Some(&Codigo(503)),
                    "el JoinError de Fallida debe llevar la carga original del pánico"
                );
            }
            otro => panic!("la tarea entró en pánico con panic_any(Codigo(503)): esperaba Fallida, no {otro:?}"),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn en_el_plazo_justo_no_se_pierde_nada() {
        let soltadas = contador();
        let llego_al_final = contador();
        let (guarda, final_de_la_tarea) = (Guarda(soltadas.clone()), llego_al_final.clone());
        let inicio = Instant::now();
        let final_ = con_plazo(PLAZO, async move {
            let _guarda = guarda;
            sleep(PLAZO).await;
            final_de_la_tarea.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            50
        })
        .await;
        misma_duracion(inicio.elapsed(), PLAZO, "la tarea y el plazo acaban a los 50 ms: vuelve entonces");
        match final_ {
            Final::Terminada(v) => {
                assert_eq!(v, 50, "la tarea terminó justo en el plazo: Terminada lleva su valor, 50")
            }
            Final::Agotada => assert_eq!(
                cuenta(&llego_al_final),
                0,
                "devolviste Agotada, pero la tarea llegó al final y dio su valor: si al cancelarla ya \
                 había terminado, devuelve Terminada(valor) (mira lo que da el JoinHandle tras abort)"
            ),
            Final::Fallida(e) => panic!("la tarea no falló: esperaba Terminada o Agotada, no Fallida({e:?})"),
        }
        assert_eq!(cuenta(&soltadas), 1, "al volver, el future de la tarea debe haberse soltado");
        assert_eq!(tareas_vivas(), 0, "al volver no debe quedar ninguna tarea viva");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn con_varios_hilos_lo_que_acaba_tras_el_plazo_no_se_pierde() {
        // Con varios hilos trabajadores, la tarea puede estar a mitad de un
        // sondeo cuando vence el plazo. Aquí su único sondeo bloquea su hilo
        // 200 ms (el plazo es de 20): `abort` no lo interrumpe, y cuando acaba,
        // la tarea ha terminado bien, con su valor.
        let llego_al_final = contador();
        let final_de_la_tarea = llego_al_final.clone();
        let final_ = con_plazo(Duration::from_millis(20), async move {
            std::thread::sleep(Duration::from_millis(200));
            final_de_la_tarea.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            7
        })
        .await;
        match final_ {
            Final::Terminada(v) => assert_eq!(v, 7, "la tarea terminó tras el plazo: Terminada lleva su valor, 7"),
            // Solo si la tarea no llegó a empezar antes del plazo (una máquina muy cargada).
            Final::Agotada => assert_eq!(
                cuenta(&llego_al_final),
                0,
                "devolviste Agotada, pero la tarea llegó al final y dio 7: abort() no interrumpe un sondeo \
                 en marcha, y si ese sondeo termina, la tarea termina bien. Tras abort, espera el JoinHandle \
                 y mira lo que da: Ok(v) es Terminada(v)"
            ),
            Final::Fallida(e) => panic!("la tarea no falló: esperaba Terminada(7), no Fallida({e:?})"),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn espera_dormida() {
        let c = conduce(
            "con_plazo",
            LIMITE,
            con_plazo(PLAZO, async {
                sleep(Duration::from_millis(23)).await;
                23
            }),
        )
        .await;
        assert!(matches!(c.valor, Final::Terminada(23)), "esperaba Terminada(23), no {:?}", c.valor);
        comprueba_que_duerme("con_plazo (con una tarea de 23 ms)", &c, &[23]);

        let c = conduce(
            "con_plazo",
            LIMITE,
            con_plazo(PLAZO, async {
                sleep(Duration::from_secs(3600)).await;
            }),
        )
        .await;
        assert!(matches!(c.valor, Final::Agotada), "esperaba Agotada, no {:?}", c.valor);
        comprueba_que_duerme("con_plazo (con una tarea de una hora)", &c, &[50]);
    }
}

/// `la_primera` enseña:
/// 1. Gana la primera réplica que termina bien, no la primera de la lista,
///    y vuelve en ese instante (`gana_la_mas_rapida`).
/// 2. Las perdedoras se cancelan de verdad (`cancela_las_perdedoras`).
/// 3. Un pánico no gana (`un_panico_no_gana`), ni dos seguidos, tengan o no
///    texto (`varios_panicos_no_ganan`).
/// 4. Sin trabajos, o si todos entran en pánico, `None`
///    (`sin_ganadora_devuelve_none`).
/// 5. Espera dormida: solo se despierta cuando termina alguna réplica
///    (`espera_dormida`).
mod primera {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use tokio::time::sleep;

    use super::{Codigo, Guarda, comprueba_que_duerme, conduce, contador, cuenta, misma_duracion, tareas_vivas};
    use joinhandle::primera::la_primera;

    const LIMITE: Duration = Duration::from_secs(1);

    /// Cómo acaba una réplica de prueba.
    #[derive(Clone, Copy)]
    enum Acaba {
        Bien,
        PanicoConTexto,
        PanicoSinTexto,
    }

    /// Un trabajo que tarda `espera` ms y da `valor` (o entra en pánico).
    async fn trabajo(
        espera: u64,
        valor: u32,
        acaba: Acaba,
        soltadas: Arc<AtomicUsize>,
        terminadas: Arc<AtomicUsize>,
    ) -> u32 {
        let _guarda = Guarda(soltadas);
        sleep(Duration::from_millis(espera)).await;
        terminadas.fetch_add(1, Ordering::SeqCst);
        match acaba {
            Acaba::Bien => valor,
            Acaba::PanicoConTexto => panic!("la réplica {valor} falla a propósito"),
            Acaba::PanicoSinTexto => std::panic::panic_any(Codigo(valor)),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn gana_la_mas_rapida() {
        let (s, t) = (contador(), contador());
        let trabajos = vec![
            trabajo(31, 31, Acaba::Bien, s.clone(), t.clone()),
            trabajo(13, 13, Acaba::Bien, s.clone(), t.clone()),
            trabajo(17, 17, Acaba::Bien, s.clone(), t.clone()),
        ];
        let c = conduce("la_primera", LIMITE, la_primera(trabajos)).await;
        assert_eq!(c.valor, Some(13), "la réplica más rápida tarda 13 ms y da 13 (es la segunda de la lista)");
        misma_duracion(c.tardado, Duration::from_millis(13), "vuelve en cuanto termina la primera");
    }

    #[tokio::test(start_paused = true)]
    async fn cancela_las_perdedoras() {
        let (soltadas, terminadas) = (contador(), contador());
        let trabajos = vec![
            trabajo(30, 30, Acaba::Bien, soltadas.clone(), terminadas.clone()),
            trabajo(10, 10, Acaba::Bien, soltadas.clone(), terminadas.clone()),
            trabajo(20, 20, Acaba::Bien, soltadas.clone(), terminadas.clone()),
        ];
        let c = conduce("la_primera", LIMITE, la_primera(trabajos)).await;
        assert_eq!(c.valor, Some(10), "la réplica más rápida tarda 10 ms y da 10");
        tokio::task::yield_now().await; // el runtime atiende las cancelaciones pendientes
        assert_eq!(
            tareas_vivas(),
            0,
            "ya hay ganadora, pero las perdedoras siguen vivas: cancélalas (abort_all, o el Drop del JoinSet)"
        );
        assert_eq!(cuenta(&soltadas), 3, "los tres futures deben haberse soltado");
        sleep(Duration::from_secs(1)).await;
        assert_eq!(cuenta(&terminadas), 1, "solo la ganadora debe llegar al final de su trabajo");
    }

    #[tokio::test(start_paused = true)]
    async fn un_panico_no_gana() {
        let (s, t) = (contador(), contador());
        let trabajos = vec![
            trabajo(5, 5, Acaba::PanicoConTexto, s.clone(), t.clone()),
            trabajo(10, 10, Acaba::Bien, s.clone(), t.clone()),
            trabajo(20, 20, Acaba::Bien, s.clone(), t.clone()),
        ];
        let c = conduce("la_primera", LIMITE, la_primera(trabajos)).await;
        assert_eq!(c.valor, Some(10), "la réplica de 5 ms entró en pánico: la ganadora es la primera que termina bien");
    }

    #[tokio::test(start_paused = true)]
    async fn varios_panicos_no_ganan() {
        let (s, t) = (contador(), contador());
        let trabajos = vec![
            trabajo(21, 21, Acaba::Bien, s.clone(), t.clone()),
            trabajo(3, 3, Acaba::PanicoSinTexto, s.clone(), t.clone()),
            trabajo(9, 9, Acaba::PanicoConTexto, s.clone(), t.clone()),
            trabajo(15, 15, Acaba::PanicoSinTexto, s.clone(), t.clone()),
            trabajo(40, 40, Acaba::Bien, s.clone(), t.clone()),
        ];
        let c = conduce("la_primera", LIMITE, la_primera(trabajos)).await;
        assert_eq!(
            c.valor,
            Some(21),
            "las réplicas de 3, 9 y 15 ms entran en pánico (dos sin texto): la ganadora es la de 21 ms. \
             Sigue esperando mientras queden tareas, no solo una vez"
        );
        misma_duracion(c.tardado, Duration::from_millis(21), "la ganadora termina a los 21 ms: vuelve entonces");
    }

    #[tokio::test(start_paused = true)]
    async fn sin_ganadora_devuelve_none() {
        let vacio: Vec<std::future::Ready<u32>> = Vec::new();
        let c = conduce("la_primera", LIMITE, la_primera(vacio)).await;
        assert_eq!(c.valor, None, "sin trabajos no hay ganadora");
        let (s, t) = (contador(), contador());
        let trabajos = vec![
            trabajo(5, 5, Acaba::PanicoConTexto, s.clone(), t.clone()),
            trabajo(10, 10, Acaba::PanicoSinTexto, s.clone(), t.clone()),
            trabajo(12, 12, Acaba::PanicoConTexto, s.clone(), t.clone()),
        ];
        let c = conduce("la_primera", LIMITE, la_primera(trabajos)).await;
        assert_eq!(c.valor, None, "si todas entran en pánico, no hay ganadora");
        misma_duracion(c.tardado, Duration::from_millis(12), "la última réplica falla a los 12 ms: vuelve entonces");
    }

    #[tokio::test(start_paused = true)]
    async fn espera_dormida() {
        let (s, t) = (contador(), contador());
        let trabajos = vec![
            trabajo(30, 30, Acaba::Bien, s.clone(), t.clone()),
            trabajo(11, 11, Acaba::PanicoConTexto, s.clone(), t.clone()),
            trabajo(19, 19, Acaba::Bien, s.clone(), t.clone()),
        ];
        let c = conduce("la_primera", LIMITE, la_primera(trabajos)).await;
        assert_eq!(c.valor, Some(19), "la réplica de 11 ms entra en pánico: gana la de 19 ms");
        comprueba_que_duerme("la_primera", &c, &[11, 19]);
    }
}

/// `clasifica` enseña:
/// 1. Cada tarea, por su `Id`, con su desenlace; un pánico con su texto
///    (`&str` o `String`) o con [`SIN_MENSAJE`] (`valores_y_panicos`).
/// 2. Una tarea que otro canceló antes sale como `Cancelada`, no como
///    pánico (`una_tarea_cancelada_antes_cuenta_como_cancelada`).
/// 3. Al vencer el plazo cancela las que quedan, las recoge como
///    `Cancelada` y vuelve sin nada vivo (`al_vencer_el_plazo_cancela_las_que_quedan`).
/// 4. El plazo cuenta desde que empieza, no desde la última tarea que acabó
///    (`el_plazo_cuenta_desde_el_principio`).
/// 5. Si todas acaban antes, no espera al plazo (`no_espera_al_plazo_si_todas_acaban`).
/// 6. Una tarea que acaba justo en el plazo sale como `Valor` si llegó al
///    final, o como `Cancelada` si no (`en_el_plazo_justo_no_se_pierde_nada`).
/// 7. Espera dormida (`espera_dormida`).
/// 8. Con varios hilos trabajadores, una tarea que está a mitad de su último
///    sondeo cuando vence el plazo sale como `Valor`
///    (`con_varios_hilos_lo_que_acaba_tras_el_plazo_no_se_pierde`).
///
/// [`SIN_MENSAJE`]: joinhandle::desenlaces::SIN_MENSAJE
mod desenlaces {
    use std::time::Duration;

    use tokio::task::JoinSet;
    use tokio::time::sleep;

    use super::{Codigo, Guarda, comprueba_que_duerme, conduce, contador, cuenta, misma_duracion, tareas_vivas};
    use joinhandle::desenlaces::{Desenlace, SIN_MENSAJE, clasifica};

    const PLAZO: Duration = Duration::from_millis(50);
    const LIMITE: Duration = Duration::from_secs(2);

    /// Una tarea que duerme `ms` y da `ms`.
    fn duerme(tareas: &mut JoinSet<u64>, ms: u64) -> tokio::task::Id {
        tareas
            .spawn(async move {
                sleep(Duration::from_millis(ms)).await;
                ms
            })
            .id()
    }

    #[tokio::test(start_paused = true)]
    async fn valores_y_panicos() {
        let mut tareas = JoinSet::new();
        let uno = tareas.spawn(async { 1u32 }).id();
        let fijo = tareas.spawn(async { panic!("sin existencias") }).id();
        let con_formato = tareas
            .spawn(async {
                let pedido = std::hint::black_box(17);
                panic!("el pedido {pedido} no existe")
            })
            .id();
        let sin_texto = tareas.spawn(async { std::panic::panic_any(42u8) }).id();
        let otro_sin_texto = tareas.spawn(async { std::panic::panic_any(Codigo(7)) }).id();
        let c = conduce("clasifica", LIMITE, clasifica(tareas, PLAZO)).await;
        let resultado = c.valor;
        assert_eq!(resultado.len(), 5, "hay cinco tareas: debe haber cinco desenlaces, no {resultado:?}");
        assert_eq!(resultado[&uno], Desenlace::Valor(1), "la tarea que da 1 debe salir como Valor(1)");
        assert_eq!(
            resultado[&fijo],
            Desenlace::Panico("sin existencias".into()),
            "un panic! con un texto fijo lleva un &str: debe salir Panico(\"sin existencias\"), con el texto del \
             pánico"
        );
        assert_eq!(
            resultado[&con_formato],
            Desenlace::Panico("el pedido 17 no existe".into()),
            "un panic! con argumentos lleva un String, no un &str: prueba los dos downcast_ref"
        );
        assert_eq!(
            resultado[&sin_texto],
            Desenlace::Panico(SIN_MENSAJE.into()),
            "panic_any(42u8) no lleva texto: debe salir SIN_MENSAJE"
        );
        assert_eq!(
            resultado[&otro_sin_texto],
            Desenlace::Panico(SIN_MENSAJE.into()),
            "panic_any(Codigo(7)) no lleva texto: debe salir SIN_MENSAJE"
        );
        misma_duracion(c.tardado, Duration::ZERO, "todas acaban enseguida: no esperes al plazo");
    }

    #[tokio::test(start_paused = true)]
    async fn una_tarea_cancelada_antes_cuenta_como_cancelada() {
        let mut tareas = JoinSet::new();
        let dormida = tareas.spawn(async {
            sleep(Duration::from_secs(3600)).await;
            1u32
        });
        let rapida = tareas.spawn(async { 2u32 }).id();
        let falla = tareas.spawn(async { panic!("falla a propósito") }).id();
        dormida.abort();
        let c = conduce("clasifica", LIMITE, clasifica(tareas, PLAZO)).await;
        let resultado = c.valor;
        assert_eq!(
            resultado.get(&dormida.id()),
            Some(&Desenlace::Cancelada),
            "alguien la abortó antes: es Cancelada, no un pánico ({resultado:?})"
        );
        assert_eq!(
            resultado.get(&rapida),
            Some(&Desenlace::Valor(2)),
            "la tarea que da 2 debe salir como Valor(2): {resultado:?}"
        );
        assert_eq!(
            resultado.get(&falla),
            Some(&Desenlace::Panico("falla a propósito".into())),
            "la tarea que entra en pánico con «falla a propósito» debe salir como Panico con ese texto, aunque otra \
             del conjunto esté cancelada: {resultado:?}"
        );
        misma_duracion(c.tardado, Duration::ZERO, "la cancelada ya no cuenta para el plazo: vuelve enseguida");
    }

    #[tokio::test(start_paused = true)]
    async fn al_vencer_el_plazo_cancela_las_que_quedan() {
        let soltadas = contador();
        let mut tareas = JoinSet::new();
        let guarda = Guarda(soltadas.clone());
        let rapida = tareas
            .spawn(async move {
                let _guarda = guarda;
                sleep(Duration::from_millis(10)).await;
                10u32
            })
            .id();
        let guarda = Guarda(soltadas.clone());
        let lenta = tareas
            .spawn(async move {
                let _guarda = guarda;
                sleep(Duration::from_secs(3600)).await;
                3600u32
            })
            .id();
        let c = conduce("clasifica", LIMITE, clasifica(tareas, PLAZO)).await;
        let resultado = c.valor;
        misma_duracion(c.tardado, PLAZO, "una tarea tarda una hora: vuelve justo al vencer el plazo");
        assert_eq!(
            resultado.get(&rapida),
            Some(&Desenlace::Valor(10)),
            "la tarea de 10 ms acaba antes del plazo: Valor(10)"
        );
        assert_eq!(
            resultado.get(&lenta),
            Some(&Desenlace::Cancelada),
            "la tarea lenta debe salir como Cancelada: cancélala y recoge también su desenlace"
        );
        // Sin ceder el control: al volver no debe quedar nada a medias.
        assert_eq!(tareas_vivas(), 0, "al volver, ninguna tarea del grupo puede seguir viva");
        assert_eq!(cuenta(&soltadas), 2, "los futures de las dos tareas deben haberse soltado");
    }

    #[tokio::test(start_paused = true)]
    async fn el_plazo_cuenta_desde_el_principio() {
        let mut tareas = JoinSet::new();
        let a_los_40 = duerme(&mut tareas, 40);
        let a_los_80 = duerme(&mut tareas, 80);
        let a_los_120 = duerme(&mut tareas, 120);
        let c = conduce("clasifica", LIMITE, clasifica(tareas, PLAZO)).await;
        let resultado = c.valor;
        misma_duracion(
            c.tardado,
            PLAZO,
            "el plazo es de 50 ms desde que llamas a clasifica: vuelve a los 50 ms aunque una tarea \
             acabara a los 40 (calcula el instante final una vez, con timeout_at)",
        );
        assert_eq!(
            resultado.get(&a_los_40),
            Some(&Desenlace::Valor(40)),
            "la tarea de 40 ms acaba dentro del plazo: Valor(40) ({resultado:?})"
        );
        assert_eq!(
            resultado.get(&a_los_80),
            Some(&Desenlace::Cancelada),
            "la tarea de 80 ms no acaba dentro del plazo: es Cancelada ({resultado:?})"
        );
        assert_eq!(
            resultado.get(&a_los_120),
            Some(&Desenlace::Cancelada),
            "la tarea de 120 ms no acaba dentro del plazo: Cancelada"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn no_espera_al_plazo_si_todas_acaban() {
        let mut tareas = JoinSet::new();
        for espera in [10u64, 20, 7] {
            duerme(&mut tareas, espera);
        }
        let c = conduce("clasifica", LIMITE, clasifica(tareas, Duration::from_secs(1))).await;
        assert_eq!(c.valor.len(), 3, "hay tres tareas: debe haber tres desenlaces");
        misma_duracion(
            c.tardado,
            Duration::from_millis(20),
            "la última tarea acaba a los 20 ms: no esperes al plazo de 1 s",
        );
    }

    #[tokio::test(start_paused = true)]
    async fn en_el_plazo_justo_no_se_pierde_nada() {
        let soltadas = contador();
        let llego_al_final = contador();
        let mut tareas = JoinSet::new();
        let (guarda, final_de_la_tarea) = (Guarda(soltadas.clone()), llego_al_final.clone());
        let justa = tareas
            .spawn(async move {
                let _guarda = guarda;
                sleep(PLAZO).await;
                final_de_la_tarea.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                50u64
            })
            .id();
        let c = conduce("clasifica", LIMITE, clasifica(tareas, PLAZO)).await;
        misma_duracion(c.tardado, PLAZO, "la tarea y el plazo acaban a los 50 ms: vuelve entonces");
        match c.valor.get(&justa) {
            Some(Desenlace::Valor(50)) => {}
            Some(Desenlace::Cancelada) => assert_eq!(
                cuenta(&llego_al_final),
                0,
                "la anotaste como Cancelada, pero llegó al final y dio su valor: recoge lo que dé el grupo \
                 después de abort_all, puede ser un valor"
            ),
            otro => panic!("la tarea que acaba justo en el plazo debe salir como Valor(50) o Cancelada, no {otro:?}"),
        }
        assert_eq!(cuenta(&soltadas), 1, "al volver, su future debe haberse soltado");
        assert_eq!(tareas_vivas(), 0, "al volver no debe quedar ninguna tarea viva");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn con_varios_hilos_lo_que_acaba_tras_el_plazo_no_se_pierde() {
        // Con varios hilos trabajadores, una tarea puede estar a mitad de un
        // sondeo cuando vence el plazo. Aquí el único sondeo de una bloquea su
        // hilo 200 ms (el plazo es de 20): `abort_all` no lo interrumpe, y
        // cuando acaba, esa tarea ha terminado bien, con su valor.
        let llego_al_final = contador();
        let final_de_la_tarea = llego_al_final.clone();
        let mut tareas = JoinSet::new();
        let acabando = tareas
            .spawn(async move {
                std::thread::sleep(Duration::from_millis(200));
                final_de_la_tarea.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                7u64
            })
            .id();
        let dormida = duerme(&mut tareas, 3600 * 1000);
        let resultado = clasifica(tareas, Duration::from_millis(20)).await;
        match resultado.get(&acabando) {
            Some(Desenlace::Valor(7)) => {}
            // Solo si la tarea no llegó a empezar antes del plazo (una máquina muy cargada).
            Some(Desenlace::Cancelada) => assert_eq!(
                cuenta(&llego_al_final),
                0,
                "la anotaste como Cancelada, pero llegó al final y dio 7: abort_all no interrumpe un sondeo en \
                 marcha, y si ese sondeo termina, la tarea termina bien. Anota lo que dé el grupo después de \
                 abort_all: puede ser un valor"
            ),
            otro => panic!("la tarea que acaba tras el plazo debe salir como Valor(7), no {otro:?}"),
        }
        assert_eq!(resultado.get(&dormida), Some(&Desenlace::Cancelada), "la tarea de una hora: Cancelada");
    }

    #[tokio::test(start_paused = true)]
    async fn espera_dormida() {
        let mut tareas = JoinSet::new();
        duerme(&mut tareas, 13);
        duerme(&mut tareas, 3600 * 1000);
        let c = conduce("clasifica", LIMITE, clasifica(tareas, PLAZO)).await;
        assert_eq!(
            c.valor.len(),
            2,
            "hay dos tareas, una cancelada al vencer el plazo: debe haber dos desenlaces, no {:?}",
            c.valor
        );
        comprueba_que_duerme("clasifica", &c, &[13, 50]);
    }
}
