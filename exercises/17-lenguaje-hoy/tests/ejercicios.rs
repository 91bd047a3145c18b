//! Pruebas del capítulo 17. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/17-lenguaje-hoy`) y contra la solución
//! (`solutions/17-lenguaje-hoy`). Un módulo por ejercicio.
//!
//! Todas usan el reloj en pausa de Tokio o sondean a mano: los tiempos son
//! exactos y nada depende de lo rápida que sea tu máquina. Cada espera
//! lleva un plazo de seguridad con un mensaje que dice qué se esperaba.

use std::future::Future;
use std::io::Write;
use std::time::Duration;

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

/// Espera `futuro` con un plazo de seguridad (en el reloj de Tokio, que en
/// estas pruebas está en pausa): si no termina, falla diciendo qué esperaba.
/// Con el reloj en pausa, un bucle que sondea sin dormir no deja avanzar el
/// reloj, así que además hay un vigilante con reloj de verdad.
async fn con_plazo<F: Future>(que: &str, futuro: F) -> F::Output {
    let (_vivo, vigilado) = std::sync::mpsc::channel::<()>();
    let nombre = que.to_string();
    std::thread::spawn(move || {
        if vigilado.recv_timeout(Duration::from_secs(10)) == Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
            // Directo a stderr: la captura de salida de las pruebas se perdería al salir.
            let _ = writeln!(
                std::io::stderr(),
                "{nombre} sigue sin terminar tras 10 s de reloj de verdad: ¿un bucle que sondea o cede sin \
                 parar, en vez de esperar dormido?"
            );
            std::process::exit(101);
        }
    });
    match tokio::time::timeout(Duration::from_secs(60), futuro).await {
        Ok(valor) => valor,
        Err(_) => panic!("{que} no terminó en 60 s de reloj: se quedó esperando algo que no llega"),
    }
}

/// `lanza_lecturas` (haz que compile) enseña:
/// 1. Con la promesa `Send` en el *trait*, la tarea se puede lanzar con
///    `tokio::spawn` desde un *runtime* de varios hilos, y las
///    implementaciones siguen escribiendo `async fn`
///    (`funciona_en_un_runtime_de_varios_hilos`); `spawn_local` no sirve.
/// 2. Las lecturas van a la vez: tarda lo que la más lenta, no la suma
///    (`las_lecturas_van_a_la_vez`).
/// 3. Los valores llegan en el orden de las claves, aunque acaben en otro,
///    con una lectura por clave, también si se repite
///    (`en_el_orden_de_las_claves`).
/// 4. Sin claves, una lista vacía (`sin_claves_nada`).
mod enviable {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use lenguaje_hoy::enviable::{Fuente, lanza_lecturas};
    use tokio::time::Instant;

    use super::{con_plazo, misma_duracion};

    /// Cada lectura tarda tantos milisegundos como dice su clave.
    #[derive(Default)]
    struct Lenta {
        lecturas: AtomicUsize,
    }

    impl Fuente for Lenta {
        async fn lee(&self, clave: u32) -> String {
            self.lecturas.fetch_add(1, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(u64::from(clave))).await;
            format!("valor-{clave}")
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn funciona_en_un_runtime_de_varios_hilos() {
        let fuente = Arc::new(Lenta::default());
        let tarea = lanza_lecturas(fuente.clone(), vec![3, 1, 2]);
        let valores = con_plazo("la tarea de lanza_lecturas", tarea).await.expect("la tarea no debería fallar");
        assert_eq!(
            valores,
            ["valor-3", "valor-1", "valor-2"],
            "los valores van en el orden de las claves (3, 1, 2), no en el que acaban"
        );
        assert_eq!(fuente.lecturas.load(Ordering::SeqCst), 3, "tres claves, tres lecturas: una por clave");
    }

    #[tokio::test(start_paused = true)]
    async fn las_lecturas_van_a_la_vez() {
        let fuente = Arc::new(Lenta::default());
        let inicio = Instant::now();
        let valores =
            con_plazo("la tarea de lanza_lecturas", lanza_lecturas(fuente, vec![30, 10, 20, 7])).await.unwrap();
        assert_eq!(valores.len(), 4, "cuatro claves, cuatro valores");
        misma_duracion(
            inicio.elapsed(),
            Duration::from_millis(30),
            "las cuatro lecturas (30, 10, 20 y 7 ms) deberían ir a la vez y acabar con la más lenta, a los 30 ms",
        );
    }

    #[tokio::test(start_paused = true)]
    async fn en_el_orden_de_las_claves() {
        let fuente = Arc::new(Lenta::default());
        let valores = con_plazo("la tarea de lanza_lecturas", lanza_lecturas(fuente.clone(), vec![30, 10, 20, 10, 5]))
            .await
            .unwrap();
        assert_eq!(
            valores,
            ["valor-30", "valor-10", "valor-20", "valor-10", "valor-5"],
            "los valores van en el orden de las claves, no en el que acaban"
        );
        assert_eq!(fuente.lecturas.load(Ordering::SeqCst), 5, "una lectura por clave, aunque se repita");
    }

    #[tokio::test(start_paused = true)]
    async fn sin_claves_nada() {
        let fuente = Arc::new(Lenta::default());
        let valores = con_plazo("la tarea de lanza_lecturas", lanza_lecturas(fuente.clone(), vec![])).await.unwrap();
        assert!(
            valores.is_empty(),
            "sin claves no hay nada que leer: el resultado es un vector vacío, y es {:?}",
            valores
        );
        assert_eq!(fuente.lecturas.load(Ordering::SeqCst), 0, "sin claves, ninguna lectura");
    }
}

/// `Lotes` enseña:
/// 1. Lotes llenos en orden, y el último más corto si sobran elementos
///    (`lotes_llenos_y_el_ultimo_corto`), también con lotes de 1 y con un
///    tamaño mayor que todo el interior.
/// 2. Nunca un lote vacío: ni al final de un número exacto de lotes ni con
///    un interior vacío (`nunca_un_lote_vacio`).
/// 3. Un interior que no es `Unpin` (hecho con `async`) también vale: hace
///    falta una proyección de `Pin` (`con_un_interior_que_no_es_unpin`).
/// 4. Con el interior `Pending`, `Lotes` devuelve `Pending` sin entregar
///    medio lote ni despertarse a sí mismo, guarda lo que ya tenía y el
///    interior lo despierta cuando llega algo (`espera_dormido_sin_medio_lote`).
/// 5. Tras `None`, siempre `None`, sin volver a sondear un interior que ya
///    se acabó (`tras_none_no_vuelve_a_sondear`).
/// 6. Con un combinador salen los mismos lotes
///    (`con_combinadores_da_los_mismos_lotes`), y también se espera a llenar
///    cada lote, entregándolo en cuanto está lleno, sin esperar al final del
///    interior (`con_combinadores_espera_a_llenar_el_lote`).
mod lotes {
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use futures::{Stream, StreamExt};
    use lenguaje_hoy::lotes::{Lotes, con_combinadores};
    use tokio_test::{assert_pending, assert_ready_eq};

    fn todos<S: Stream + Unpin>(s: S) -> Vec<S::Item> {
        futures::executor::block_on(s.collect())
    }

    #[test]
    fn lotes_llenos_y_el_ultimo_corto() {
        let lotes = todos(Lotes::new(futures::stream::iter(1..=7), 3));
        assert_eq!(
            lotes,
            [vec![1, 2, 3], vec![4, 5, 6], vec![7]],
            "de 1 a 7 en lotes de 3: dos lotes llenos, en orden, y el último con lo que sobra, [7]"
        );
        let de_uno = todos(Lotes::new(futures::stream::iter(["a", "b", "c"]), 1));
        assert_eq!(de_uno, [vec!["a"], vec!["b"], vec!["c"]], "con lotes de 1, cada elemento sale en su propio lote");
        let grande = todos(Lotes::new(futures::stream::iter(1..=4), 10));
        assert_eq!(grande, [vec![1, 2, 3, 4]], "si el interior se acaba antes de llenar el lote, sale lo que haya");
    }

    #[test]
    fn nunca_un_lote_vacio() {
        let exacto = todos(Lotes::new(futures::stream::iter(1..=6), 3));
        assert_eq!(exacto, [vec![1, 2, 3], vec![4, 5, 6]], "con un número exacto de lotes no sobra ninguno vacío");
        let vacio = todos(Lotes::new(futures::stream::iter(Vec::<u32>::new()), 3));
        assert!(vacio.is_empty(), "un interior vacío no da ningún lote, tampoco uno vacío: {vacio:?}");
    }

    #[test]
    fn con_un_interior_que_no_es_unpin() {
        // `unfold` con un bloque async: el future de cada paso no es Unpin,
        // así que el stream tampoco. Cada paso cede una vez (`Pending`).
        let interior = futures::stream::unfold(0u32, |n| async move {
            tokio::task::yield_now().await;
            (n < 5).then_some((n, n + 1))
        });
        let lotes = Box::pin(Lotes::new(interior, 2));
        assert_eq!(
            todos(lotes),
            [vec![0, 1], vec![2, 3], vec![4]],
            "de 0 a 4 en lotes de 2, con un interior que no es Unpin: [0, 1], [2, 3] y el último corto, [4]"
        );
    }

    #[test]
    fn espera_dormido_sin_medio_lote() {
        let (tx, rx) = futures::channel::mpsc::unbounded::<u32>();
        let mut lotes = Lotes::new(rx, 3);
        let mut siguiente = tokio_test::task::spawn(lotes.next());
        tx.unbounded_send(1).unwrap();
        tx.unbounded_send(2).unwrap();
        assert_pending!(siguiente.poll(), "con 2 de 3 elementos y el interior Pending, todavía no hay lote");
        assert!(
            !siguiente.is_woken(),
            "Lotes se despertó a sí mismo sin que llegara nada: eso es sondear en un bucle; \
             deja que el interior despierte a la tarea"
        );
        assert_pending!(siguiente.poll(), "sigue sin haber un tercer elemento");
        tx.unbounded_send(3).unwrap();
        assert!(
            siguiente.is_woken(),
            "llegó un elemento y nadie despertó a la tarea: sondea el interior con el `cx` que recibes"
        );
        assert_ready_eq!(siguiente.poll(), Some(vec![1, 2, 3]), "los dos primeros se guardan entre sondeos");
        drop(siguiente);
        tx.unbounded_send(4).unwrap();
        drop(tx);
        assert_eq!(
            futures::executor::block_on(lotes.next()),
            Some(vec![4]),
            "tras el lote [1, 2, 3], el 4 llegó y el interior se cerró: sale [4], el último, más corto"
        );
    }

    /// Un interior que no respeta el final: tras su `None` da `99` para
    /// siempre (el contrato de `Stream` se lo permite). Un `Lotes` que lo
    /// vuelve a sondear después de su `None` acaba entregando nueves.
    struct Descuidado {
        quedan: Vec<u32>,
        acabado: bool,
    }

    impl Stream for Descuidado {
        type Item = u32;

        fn poll_next(mut self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Option<u32>> {
            if self.acabado {
                return Poll::Ready(Some(99));
            }
            if self.quedan.is_empty() {
                self.acabado = true;
                return Poll::Ready(None);
            }
            Poll::Ready(Some(self.quedan.remove(0)))
        }
    }

    #[test]
    fn tras_none_no_vuelve_a_sondear() {
        let interior = Descuidado { quedan: vec![1, 2, 3, 4, 5], acabado: false };
        let mut lotes = Lotes::new(interior, 2);
        let mut vistos = Vec::new();
        for _ in 0..6 {
            vistos.push(futures::executor::block_on(lotes.next()));
        }
        assert_eq!(
            vistos,
            [Some(vec![1, 2]), Some(vec![3, 4]), Some(vec![5]), None, None, None],
            "tras el None del interior, Lotes da None siempre, sin volver a sondearlo"
        );
    }
    #[test]
    fn con_combinadores_da_los_mismos_lotes() {
        let lotes = todos(Box::pin(con_combinadores(futures::stream::iter(1..=7), 3)));
        assert_eq!(
            lotes,
            [vec![1, 2, 3], vec![4, 5, 6], vec![7]],
            "con combinadores salen los mismos lotes que con Lotes: dos llenos y el último corto, [7]"
        );
        let exacto = todos(Box::pin(con_combinadores(futures::stream::iter(1..=6), 3)));
        assert_eq!(
            exacto,
            [vec![1, 2, 3], vec![4, 5, 6]],
            "con un número exacto de lotes no sobra ninguno vacío, tampoco con combinadores"
        );
        let vacio = todos(Box::pin(con_combinadores(futures::stream::iter(Vec::<u32>::new()), 3)));
        assert!(vacio.is_empty(), "un interior vacío no da ningún lote: {vacio:?}");
    }

    #[test]
    fn con_combinadores_espera_a_llenar_el_lote() {
        let (tx, rx) = futures::channel::mpsc::unbounded::<u32>();
        let mut lotes = Box::pin(con_combinadores(rx, 3));
        let mut siguiente = tokio_test::task::spawn(lotes.next());
        assert_pending!(siguiente.poll());
        tx.unbounded_send(1).unwrap();
        tx.unbounded_send(2).unwrap();
        assert_pending!(
            siguiente.poll(),
            "con 2 de 3 elementos y el interior Pending, todavía no hay lote (¿ready_chunks en vez de chunks?)"
        );
        tx.unbounded_send(3).unwrap();
        assert!(siguiente.is_woken(), "llegó el tercer elemento y nadie despertó a la tarea");
        assert_ready_eq!(
            siguiente.poll(),
            Some(vec![1, 2, 3]),
            "con el lote lleno hay que entregarlo ya, aunque el interior (un canal abierto) no se haya acabado"
        );
    }
}

/// `descarga_todas` enseña:
/// 1. Cada clave se descarga una vez (`cada_clave_una_vez`).
/// 2. Nunca hay más de `limite` descargas en curso, y mientras quedan
///    claves hay exactamente `limite` (`llena_el_limite_sin_pasarse`).
/// 3. En cuanto acaba una empieza la siguiente, sin esperar a la tanda
///    entera ni a la más lenta (`empieza_otra_en_cuanto_acaba_una`).
/// 4. Los resultados salen en el orden en que acaban
///    (`en_el_orden_en_que_acaban`).
/// 5. Los extremos: `limite` 1 es ir de una en una, un límite mayor que
///    las claves las lanza todas (`limite_uno_y_limite_de_sobra`) y sin
///    claves no hay nada que hacer (`sin_claves_nada`).
mod acotadas {
    use std::cell::{Cell, RefCell};
    use std::time::Duration;

    use lenguaje_hoy::acotadas::descarga_todas;
    use tokio::time::Instant;

    use super::{con_plazo, misma_duracion};

    /// Lo que las pruebas anotan de cada descarga.
    struct Registro {
        inicio: Instant,
        en_curso: Cell<usize>,
        maximo: Cell<usize>,
        empiezan: RefCell<Vec<(u32, Duration)>>,
    }

    impl Registro {
        fn new() -> Self {
            Registro {
                inicio: Instant::now(),
                en_curso: Cell::new(0),
                maximo: Cell::new(0),
                empiezan: RefCell::new(Vec::new()),
            }
        }

        /// Una descarga que dura `clave` milisegundos.
        async fn descarga(&self, clave: u32) -> String {
            self.en_curso.set(self.en_curso.get() + 1);
            self.maximo.set(self.maximo.get().max(self.en_curso.get()));
            self.empiezan.borrow_mut().push((clave, self.inicio.elapsed()));
            tokio::time::sleep(Duration::from_millis(u64::from(clave))).await;
            self.en_curso.set(self.en_curso.get() - 1);
            format!("v{clave}")
        }
    }

    async fn corre(claves: &[u32], limite: usize) -> (Registro, Vec<(u32, String)>, Duration) {
        let registro = Registro::new();
        let resultado = con_plazo(
            "descarga_todas",
            descarga_todas(claves.to_vec(), limite, async |clave: u32| registro.descarga(clave).await),
        )
        .await;
        let tardado = registro.inicio.elapsed();
        (registro, resultado, tardado)
    }

    #[tokio::test(start_paused = true)]
    async fn cada_clave_una_vez() {
        let claves: Vec<u32> = (1..=11).collect();
        let (registro, resultado, _) = corre(&claves, 3).await;
        let mut vistas: Vec<u32> = resultado.iter().map(|(c, _)| *c).collect();
        vistas.sort();
        assert_eq!(vistas, claves, "falta o sobra alguna clave: {resultado:?}");
        assert!(resultado.iter().all(|(c, v)| *v == format!("v{c}")), "cada clave con su valor: {resultado:?}");
        assert_eq!(registro.empiezan.borrow().len(), 11, "una descarga por clave");
    }

    #[tokio::test(start_paused = true)]
    async fn llena_el_limite_sin_pasarse() {
        let claves: Vec<u32> = (1..=11).collect();
        let (registro, _, _) = corre(&claves, 3).await;
        assert!(registro.maximo.get() <= 3, "hubo {} descargas a la vez con límite 3", registro.maximo.get());
        assert_eq!(registro.maximo.get(), 3, "con 11 claves y límite 3 debería haber 3 a la vez, no menos");
    }

    #[tokio::test(start_paused = true)]
    async fn empieza_otra_en_cuanto_acaba_una() {
        // Con límite 2: 51 y 11 empiezan a la vez; 12 empieza al acabar 11
        // (a los 11 ms), 13 a los 23 y 14 a los 36, mientras 51 sigue.
        let (registro, _, tardado) = corre(&[51, 11, 12, 13, 14], 2).await;
        let empiezan = registro.empiezan.borrow().clone();
        let ms = |m| Duration::from_millis(m);
        let esperado = [(51, ms(0)), (11, ms(0)), (12, ms(11)), (13, ms(23)), (14, ms(36))];
        let texto = |v: &[(u32, Duration)]| {
            let partes: Vec<String> =
                v.iter().map(|(clave, cuando)| format!("{clave} a los {}", medidas::duracion(*cuando))).collect();
            partes.join(", ")
        };
        assert!(
            empiezan == esperado,
            "cada descarga debería empezar en cuanto acaba otra, sin esperar a la más lenta. Esperaba que \
             empezaran {}; empezaron {}",
            texto(&esperado),
            texto(&empiezan)
        );
        misma_duracion(tardado, ms(51), "todo cabe en lo que dura la descarga más larga");
    }

    #[tokio::test(start_paused = true)]
    async fn en_el_orden_en_que_acaban() {
        let (_, resultado, _) = corre(&[51, 11, 12, 13, 14], 2).await;
        let orden: Vec<u32> = resultado.iter().map(|(c, _)| *c).collect();
        assert_eq!(orden, [11, 12, 13, 14, 51], "los resultados salen según acaban, no en el orden de las claves");
    }

    #[tokio::test(start_paused = true)]
    async fn sin_claves_nada() {
        let (registro, resultado, tardado) = corre(&[], 3).await;
        assert!(resultado.is_empty(), "sin claves no hay nada que descargar: {resultado:?}");
        assert!(registro.empiezan.borrow().is_empty(), "sin claves, ninguna descarga");
        misma_duracion(tardado, Duration::ZERO, "sin claves, descarga_todas vuelve enseguida");
    }

    #[tokio::test(start_paused = true)]
    async fn limite_uno_y_limite_de_sobra() {
        let (registro, resultado, tardado) = corre(&[3, 1, 2], 1).await;
        assert_eq!(registro.maximo.get(), 1, "con límite 1, nunca puede haber más de una descarga en curso");
        assert_eq!(
            resultado.iter().map(|(c, _)| *c).collect::<Vec<_>>(),
            [3, 1, 2],
            "con límite 1 van de una en una, así que acaban en el orden de las claves: 3, 1, 2"
        );
        misma_duracion(tardado, Duration::from_millis(6), "con límite 1 van de una en una: 3 + 1 + 2 ms");

        let (registro, resultado, tardado) = corre(&[3, 1, 2], 10).await;
        assert_eq!(registro.maximo.get(), 3, "con límite 10 y 3 claves, las 3 a la vez");
        assert_eq!(
            resultado.iter().map(|(c, _)| *c).collect::<Vec<_>>(),
            [1, 2, 3],
            "con límite de sobra van las tres a la vez y salen según acaban: la de 1 ms, la de 2 y la de 3"
        );
        misma_duracion(tardado, Duration::from_millis(3), "con límite 10 van las tres a la vez: 3 ms");
    }
}
