//! Pruebas del capítulo 07. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/07-joinhandle`) y contra la solución
//! (`solutions/07-joinhandle`). Un módulo por ejercicio.
//!
//! Todas usan el reloj en pausa de Tokio: un `sleep` de una hora no tarda
//! nada, porque el reloj salta al siguiente temporizador cuando no hay nada
//! más que hacer. Para saber si una tarea sigue viva miran dos cosas: una
//! guarda dentro de su *future*, que cuenta cuándo se suelta, y el número de
//! tareas vivas del runtime.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

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

mod plazo {
    use std::time::Duration;

    use tokio::time::{Instant, sleep};

    use super::{Guarda, contador, cuenta, tareas_vivas};
    use joinhandle::plazo::{Final, con_plazo};

    const PLAZO: Duration = Duration::from_millis(50);

    #[tokio::test(start_paused = true)]
    async fn terminada_si_llega_a_tiempo() {
        let inicio = Instant::now();
        let final_ = con_plazo(PLAZO, async {
            sleep(Duration::from_millis(10)).await;
            7
        })
        .await;
        assert!(
            matches!(final_, Final::Terminada(7)),
            "la tarea dio 7 a los 10 ms: esperaba Terminada(7), no {final_:?}"
        );
        assert_eq!(
            inicio.elapsed(),
            Duration::from_millis(10),
            "la tarea terminó a los 10 ms: no esperes a que venza el plazo"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn agotada_cancela_la_tarea() {
        let soltadas = contador();
        let llego_al_final = contador();
        let (guarda, final_de_la_tarea) = (Guarda(soltadas.clone()), llego_al_final.clone());
        let inicio = Instant::now();
        let final_ = con_plazo(PLAZO, async move {
            let _guarda = guarda;
            sleep(Duration::from_secs(3600)).await;
            final_de_la_tarea.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        })
        .await;
        assert!(matches!(final_, Final::Agotada), "la tarea tarda una hora: esperaba Agotada, no {final_:?}");
        assert_eq!(inicio.elapsed(), PLAZO, "con_plazo debe volver justo al vencer el plazo");

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
        let final_ = con_plazo(PLAZO, async move {
            let _guarda = guarda;
            sleep(Duration::from_secs(3600)).await;
        })
        .await;
        assert!(matches!(final_, Final::Agotada), "esperaba Agotada, no {final_:?}");
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
        let final_ = con_plazo(PLAZO, async {
            sleep(Duration::from_millis(10)).await;
            if std::hint::black_box(true) {
                panic!("este trabajo falla a propósito");
            }
            1
        })
        .await;
        match final_ {
            Final::Fallida(error) => assert!(error.is_panic(), "el error debe ser un pánico: {error:?}"),
            otro => panic!("la tarea entró en pánico: esperaba Fallida, no {otro:?}"),
        }
    }
}

mod primera {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use tokio::time::{Instant, sleep};

    use super::{Guarda, contador, cuenta, tareas_vivas};
    use joinhandle::primera::la_primera;

    /// Un trabajo que tarda `espera` ms y da `valor` (o entra en pánico).
    async fn trabajo(
        espera: u64,
        valor: u32,
        falla: bool,
        soltadas: Arc<AtomicUsize>,
        terminadas: Arc<AtomicUsize>,
    ) -> u32 {
        let _guarda = Guarda(soltadas);
        sleep(Duration::from_millis(espera)).await;
        terminadas.fetch_add(1, Ordering::SeqCst);
        if falla {
            panic!("la réplica {valor} falla a propósito");
        }
        valor
    }

    #[tokio::test(start_paused = true)]
    async fn gana_la_mas_rapida() {
        let (s, t) = (contador(), contador());
        let trabajos = vec![
            trabajo(30, 30, false, s.clone(), t.clone()),
            trabajo(10, 10, false, s.clone(), t.clone()),
            trabajo(20, 20, false, s.clone(), t.clone()),
        ];
        let inicio = Instant::now();
        assert_eq!(la_primera(trabajos).await, Some(10), "la réplica más rápida tarda 10 ms y da 10");
        assert_eq!(inicio.elapsed(), Duration::from_millis(10), "vuelve en cuanto termina la primera");
    }

    #[tokio::test(start_paused = true)]
    async fn cancela_las_perdedoras() {
        let (soltadas, terminadas) = (contador(), contador());
        let trabajos = vec![
            trabajo(30, 30, false, soltadas.clone(), terminadas.clone()),
            trabajo(10, 10, false, soltadas.clone(), terminadas.clone()),
            trabajo(20, 20, false, soltadas.clone(), terminadas.clone()),
        ];
        assert_eq!(la_primera(trabajos).await, Some(10));
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
            trabajo(5, 5, true, s.clone(), t.clone()),
            trabajo(10, 10, false, s.clone(), t.clone()),
            trabajo(20, 20, false, s.clone(), t.clone()),
        ];
        assert_eq!(
            la_primera(trabajos).await,
            Some(10),
            "la réplica de 5 ms entró en pánico: la ganadora es la primera que termina bien"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn sin_ganadora_devuelve_none() {
        let vacio: Vec<std::future::Ready<u32>> = Vec::new();
        assert_eq!(la_primera(vacio).await, None, "sin trabajos no hay ganadora");
        let (s, t) = (contador(), contador());
        let trabajos = vec![trabajo(5, 5, true, s.clone(), t.clone()), trabajo(10, 10, true, s.clone(), t.clone())];
        assert_eq!(la_primera(trabajos).await, None, "si todas entran en pánico, no hay ganadora");
    }
}

mod desenlaces {
    use std::time::Duration;

    use tokio::task::JoinSet;
    use tokio::time::{Instant, sleep};

    use super::{Guarda, contador, cuenta, tareas_vivas};
    use joinhandle::desenlaces::{Desenlace, SIN_MENSAJE, clasifica};

    const PLAZO: Duration = Duration::from_millis(50);

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
        let resultado = clasifica(tareas, PLAZO).await;
        assert_eq!(resultado.len(), 4, "hay cuatro tareas: debe haber cuatro desenlaces, no {resultado:?}");
        assert_eq!(resultado[&uno], Desenlace::Valor(1));
        assert_eq!(resultado[&fijo], Desenlace::Panico("sin existencias".into()));
        assert_eq!(
            resultado[&con_formato],
            Desenlace::Panico("el pedido 17 no existe".into()),
            "un panic! con argumentos lleva un String, no un &str: prueba los dos downcast_ref"
        );
        assert_eq!(resultado[&sin_texto], Desenlace::Panico(SIN_MENSAJE.into()));
    }

    #[tokio::test(start_paused = true)]
    async fn una_tarea_cancelada_antes_cuenta_como_cancelada() {
        let mut tareas = JoinSet::new();
        let dormida = tareas.spawn(async {
            sleep(Duration::from_secs(3600)).await;
            1u32
        });
        let rapida = tareas.spawn(async { 2u32 }).id();
        dormida.abort();
        let resultado = clasifica(tareas, PLAZO).await;
        assert_eq!(resultado.get(&dormida.id()), Some(&Desenlace::Cancelada), "alguien la abortó antes: {resultado:?}");
        assert_eq!(resultado.get(&rapida), Some(&Desenlace::Valor(2)));
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
        let inicio = Instant::now();
        let resultado = clasifica(tareas, PLAZO).await;
        assert_eq!(inicio.elapsed(), PLAZO, "una tarea tarda una hora: vuelve justo al vencer el plazo");
        assert_eq!(resultado.get(&rapida), Some(&Desenlace::Valor(10)));
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
    async fn no_espera_al_plazo_si_todas_acaban() {
        let mut tareas = JoinSet::new();
        for espera in [10u64, 20] {
            tareas.spawn(async move {
                sleep(Duration::from_millis(espera)).await;
                espera
            });
        }
        let inicio = Instant::now();
        let resultado = clasifica(tareas, Duration::from_secs(1)).await;
        assert_eq!(resultado.len(), 2);
        assert_eq!(
            inicio.elapsed(),
            Duration::from_millis(20),
            "la última tarea acaba a los 20 ms: no esperes al plazo de 1 s"
        );
    }
}
