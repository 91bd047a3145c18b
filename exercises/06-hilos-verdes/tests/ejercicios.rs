//! Pruebas del capítulo 06. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/06-hilos-verdes`) y contra la solución
//! (`solutions/06-hilos-verdes`). Un módulo por ejercicio.
//!
//! Las de `junta` y `reparte` «conducen» tu función a mano ([`conduce`]):
//! la sondean con un despertador que anota cuándo la despiertan y adelantan
//! el reloj en pausa de milisegundo en milisegundo. Así se ve cuánto tarda y
//! si espera dormida, y una respuesta que sondea en un bucle falla con un
//! mensaje en vez de dejar la prueba colgada.

use std::future::Future;
use std::task::Poll;
use std::time::Duration;

use tokio::time::Instant;

/// Lo que pasó al conducir un *future* con [`conduce`].
struct Conducido<T> {
    valor: T,
    /// Cuándo se despertó, contado desde el principio (reloj en pausa).
    despertares: Vec<Duration>,
    /// Cuánto reloj pasó hasta que terminó.
    tardado: Duration,
}

/// Sondea `futuro` con un despertador que anota cuándo lo despiertan. Entre
/// sondeo y sondeo deja correr a las demás tareas y, si nadie lo ha
/// despertado, adelanta el reloj en pausa un milisegundo. No pasa de
/// `limite` de reloj ni de `max_despertares` despertares (más serían un
/// bucle que sondea): nunca se cuelga.
async fn conduce<F: Future>(que: &str, limite: Duration, max_despertares: usize, futuro: F) -> Conducido<F::Output> {
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
            despertares.len() <= max_despertares,
            "{que} se despertó más de {max_despertares} veces (las primeras, a los {}): \
             sondea en un bucle en vez de esperar dormido con `.await`",
            medidas::duraciones(&despertares[..5])
        );
    }
}

/// `anota_en_segundo_plano` enseña:
/// 1. Las palabras quedan al final y en orden, y la tarea devuelve el tamaño
///    del registro al terminar (`anota_en_orden_y_cuenta`).
/// 2. El candado se suelta antes de cada `.await`: mientras la tarea cede,
///    otras tareas pueden leer el registro y ven su avance
///    (`el_registro_queda_libre_mientras_la_tarea_cede`).
/// 3. Dos tareas sobre el mismo registro se intercalan palabra a palabra,
///    no se pisan, y cada una cuenta lo que hay al terminar, incluidas las
///    palabras de la otra (`dos_tareas_se_intercalan`).
mod lanzable {
    use std::sync::{Arc, Mutex};

    use hilos_verdes::lanzable::anota_en_segundo_plano;

    fn palabras(lista: &[&str]) -> Vec<String> {
        lista.iter().map(|p| p.to_string()).collect()
    }

    #[tokio::test]
    async fn anota_en_orden_y_cuenta() {
        let registro = Arc::new(Mutex::new(palabras(&["hola"])));
        let tarea = anota_en_segundo_plano(registro.clone(), palabras(&["que", "tal", "estas"]));
        let total = tarea.await.expect("la tarea no debería fallar");
        assert_eq!(total, 4, "la tarea debe devolver el tamaño final del registro");
        assert_eq!(
            *registro.lock().unwrap(),
            palabras(&["hola", "que", "tal", "estas"]),
            "las palabras deben quedar al final del registro y en orden"
        );
    }

    #[tokio::test]
    async fn el_registro_queda_libre_mientras_la_tarea_cede() {
        let registro = Arc::new(Mutex::new(Vec::new()));
        let nuevas: Vec<String> = (0..1000).map(|n| n.to_string()).collect();
        let tarea = anota_en_segundo_plano(registro.clone(), nuevas);
        // En este runtime de un solo hilo, la tarea avanza cuando cedemos.
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        {
            let lista = registro.try_lock().expect("el registro está bloqueado: no sueltes el candado solo al final");
            assert!(
                !lista.is_empty() && lista.len() < 1000,
                "mientras la tarea trabaja, las otras tareas deben ver su avance \
                 (había {} palabras)",
                lista.len()
            );
        }
        assert_eq!(
            tarea.await.expect("la tarea no debería fallar"),
            1000,
            "la tarea debe devolver el tamaño final del registro: 1000 palabras nuevas en un registro vacío son 1000"
        );
    }

    #[tokio::test]
    async fn dos_tareas_se_intercalan() {
        let registro = Arc::new(Mutex::new(Vec::new()));
        let a = anota_en_segundo_plano(registro.clone(), palabras(&["a1", "a2", "a3"]));
        let b = anota_en_segundo_plano(registro.clone(), palabras(&["b1", "b2", "b3", "b4"]));
        let (total_a, total_b) =
            (a.await.expect("la tarea A no debería fallar"), b.await.expect("la tarea B no debería fallar"));
        let lista = registro.lock().unwrap().clone();
        let de = |letra: &str| lista.iter().filter(|p| p.starts_with(letra)).cloned().collect::<Vec<_>>();
        assert_eq!(de("a"), palabras(&["a1", "a2", "a3"]), "faltan palabras de A o no están en orden: {lista:?}");
        let mensaje = format!("faltan palabras de B o no están en orden: {lista:?}");
        assert_eq!(de("b"), palabras(&["b1", "b2", "b3", "b4"]), "{mensaje}");
        assert_ne!(
            lista[..3],
            palabras(&["a1", "a2", "a3"])[..],
            "A escribió todas sus palabras sin dejar pasar a B ({lista:?}): añade una palabra, suelta el \
             candado y cede el control, una y otra vez"
        );
        assert_eq!(
            total_a.max(total_b),
            7,
            "la última tarea en terminar ve las 7 palabras: cada una devuelve el tamaño del registro al \
             terminar (léelo al final, no lo calcules al principio); devolvieron {total_a} y {total_b}"
        );
        assert!(
            total_a.min(total_b) > 4,
            "las dos tareas se intercalan, así que la primera en terminar ya ve palabras de la otra; \
             devolvieron {total_a} y {total_b}: lee el tamaño del registro al terminar"
        );
    }
}

/// `lanza` y `recoge` enseñan:
/// 1. Una tarea por número, lanzadas sin esperar a ninguna (`lanza_una_tarea_por_numero`).
/// 2. La suma es la de los cuadrados, en u64 aunque i * i no quepa en u32
///    (`suma_los_cuadrados`, `no_desborda_con_setenta_mil_tareas`).
/// 3. Las tareas esperan a la vez (`las_tareas_esperan_a_la_vez`).
/// 4. Si alguna falla, `recoge` devuelve `Err` (`recoge_devuelve_el_fallo`),
///    el de la primera de la lista que falló aunque otra fallara antes en el
///    tiempo (`recoge_devuelve_el_primer_fallo_de_la_lista`), y una tarea
///    cancelada también es un fallo (`una_cancelada_tambien_es_un_fallo`).
mod reparte {
    use tokio::runtime::Handle;
    use tokio::time::{Duration, sleep};

    use super::conduce;

    const LIMITE: Duration = Duration::from_secs(5);

    use hilos_verdes::reparte::{ESPERA, lanza, recoge};

    /// 0² + 1² + ... + (n-1)²
    fn suma_de_cuadrados(n: u64) -> u64 {
        (n - 1) * n * (2 * n - 1) / 6
    }

    #[tokio::test(start_paused = true)]
    async fn lanza_una_tarea_por_numero() {
        let tareas = lanza(100);
        assert_eq!(tareas.len(), 100, "debe haber un JoinHandle por número");
        assert_eq!(
            Handle::current().metrics().num_alive_tasks(),
            100,
            "`lanza` debe crear 100 tareas con tokio::spawn"
        );
        conduce("recoge", LIMITE, 100, recoge(tareas)).await.valor.expect("ninguna tarea debería fallar");
    }

    #[tokio::test(start_paused = true)]
    async fn suma_los_cuadrados() {
        let suma = conduce("recoge", LIMITE, 100, recoge(lanza(10))).await.valor;
        let suma = suma.expect("ninguna tarea debería fallar");
        assert_eq!(suma, 285, "0² + 1² + ... + 9² = 285");
    }

    #[tokio::test(start_paused = true)]
    async fn las_tareas_esperan_a_la_vez() {
        let c = conduce("recoge", LIMITE, 100, recoge(lanza(1000))).await;
        c.valor.expect("ninguna tarea debería fallar");
        let tardado = c.tardado;
        assert!(
            tardado >= ESPERA && tardado < ESPERA * 2,
            "mil tareas que esperan 10 ms a la vez deben tardar unos 10 ms, no {}",
            medidas::duracion(tardado)
        );
    }

    #[tokio::test(start_paused = true)]
    async fn no_desborda_con_setenta_mil_tareas() {
        // Cada JoinHandle listo gasta presupuesto cooperativo: recoge cede cada pocos cientos.
        let suma = conduce("recoge", LIMITE, 2_000, recoge(lanza(70_000))).await.valor;
        assert_eq!(
            suma.ok(),
            Some(suma_de_cuadrados(70_000)),
            "con i >= 65 536, i * i no cabe en u32: convierte a u64 antes de multiplicar"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn recoge_devuelve_el_fallo() {
        let tareas = vec![
            tokio::spawn(async { 1 }),
            tokio::spawn(async { panic!("esta tarea falla a propósito") }),
            tokio::spawn(async { 3 }),
        ];
        let error = conduce("recoge", LIMITE, 100, recoge(tareas))
            .await
            .valor
            .expect_err("una tarea falló: `recoge` debe devolver Err");
        assert!(error.is_panic(), "el error debe ser el pánico de la tarea");
    }

    /// Una carga de pánico que no es texto, para saber qué tarea falló.
    #[derive(Debug, PartialEq, Eq)]
    struct Codigo(u32);

    #[tokio::test(start_paused = true)]
    async fn recoge_devuelve_el_primer_fallo_de_la_lista() {
        let falla = |codigo: u32, ms: u64| {
            tokio::spawn(async move {
                sleep(Duration::from_millis(ms)).await;
                if std::hint::black_box(true) {
                    std::panic::panic_any(Codigo(codigo));
                }
                0u64
            })
        };
        let tareas =
            vec![tokio::spawn(async { 1 }), falla(1, 30), tokio::spawn(async { 3 }), falla(2, 10), falla(3, 20)];
        let primera = tareas[1].id();
        let error = conduce("recoge", LIMITE, 100, recoge(tareas))
            .await
            .valor
            .expect_err("tres tareas fallaron: `recoge` debe devolver Err");
        assert_eq!(
            error.id(),
            primera,
            "fallaron la 2.ª, la 4.ª y la 5.ª tareas de la lista: devuelve el error de la 2.ª, la primera de \
             la lista que falló (aunque la 4.ª fallara antes), no el último que viste"
        );
        assert_eq!(
            error.try_into_panic().ok().and_then(|carga| carga.downcast::<Codigo>().ok()).map(|c| *c),
            Some(Codigo(1)),
            "el error debe llevar el pánico de esa tarea, con su carga (aquí, Codigo(1))"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn una_cancelada_tambien_es_un_fallo() {
        let dormida = tokio::spawn(async {
            sleep(Duration::from_secs(3600)).await;
            2
        });
        dormida.abort();
        let cancelada = dormida.id();
        let tareas = vec![tokio::spawn(async { 1 }), dormida, tokio::spawn(async { panic!("falla después") })];
        let error = conduce("recoge", LIMITE, 100, recoge(tareas))
            .await
            .valor
            .expect_err("una tarea fue cancelada: `recoge` debe devolver Err");
        assert!(
            error.is_cancelled() && error.id() == cancelada,
            "la 2.ª tarea fue cancelada y es la primera de la lista que no terminó bien: devuelve su \
             JoinError (cancelada), no {error:?}"
        );
    }
}

/// `pagina` enseña:
/// 1. Devuelve el perfil y los pedidos del cliente (`devuelve_perfil_y_pedidos`).
/// 2. Las dos consultas van a la vez: tarda lo que la más lenta, 50 ms, no
///    80 (`tarda_lo_que_el_mas_lento`).
/// 3. Sin tareas nuevas: los dos *futures* avanzan dentro de la tarea que
///    llama (`no_lanza_tareas`).
/// 4. Espera dormida: solo se despierta cuando responde cada servicio, a los
///    30 y a los 50 ms (`duerme_hasta_cada_respuesta`).
mod junta {
    use std::time::Duration;

    use tokio::runtime::Handle;

    use super::conduce;
    use hilos_verdes::junta::{Perfil, TARDA_PEDIDOS, TARDA_PERFIL, pagina};

    const LIMITE: Duration = Duration::from_secs(1);

    #[tokio::test(start_paused = true)]
    async fn devuelve_perfil_y_pedidos() {
        let (perfil, pedidos) = conduce("pagina", LIMITE, 50, pagina(7)).await.valor;
        assert_eq!(perfil, Perfil { id: 7, nombre: "cliente-7".into() }, "el perfil del cliente 7");
        assert_eq!(pedidos, vec![701, 702, 703], "los pedidos del cliente 7");
    }

    #[tokio::test(start_paused = true)]
    async fn tarda_lo_que_el_mas_lento() {
        let c = conduce("pagina", LIMITE, 50, pagina(1)).await;
        assert!(
            c.tardado == TARDA_PEDIDOS,
            "las dos consultas deben ir a la vez: esperaba {} (la más lenta) y tardó {} (una detrás de \
             otra serían {})",
            medidas::duracion(TARDA_PEDIDOS),
            medidas::duracion(c.tardado),
            medidas::duracion(TARDA_PEDIDOS + TARDA_PERFIL)
        );
    }

    #[tokio::test(start_paused = true)]
    async fn no_lanza_tareas() {
        let mut pendiente = tokio_test::task::spawn(pagina(2));
        assert!(pendiente.poll().is_pending(), "al primer sondeo las consultas no pueden haber terminado");
        // Que arranquen las tareas, si las hubiera.
        for _ in 0..5 {
            tokio::task::yield_now().await;
        }
        assert_eq!(
            Handle::current().metrics().num_alive_tasks(),
            0,
            "usa tokio::join! dentro de la tarea, sin tokio::spawn"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn duerme_hasta_cada_respuesta() {
        let c = conduce("pagina", LIMITE, 50, pagina(3)).await;
        let esperados = [TARDA_PERFIL, TARDA_PEDIDOS];
        assert!(
            c.despertares.iter().all(|t| esperados.contains(t)) && c.despertares.len() <= 4,
            "pagina solo debe despertarse cuando responde un servicio (a los 30 y a los 50 ms, si las dos \
             consultas van a la vez), y se despertó a los {}. Ni una detrás de otra ni un bucle que \
             sondea: `tokio::join!` espera dormido a las dos",
            medidas::duraciones(&c.despertares)
        );
    }
}
