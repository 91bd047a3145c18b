//! Pruebas del capítulo 15. Las mismas pruebas corren contra tu ejercicio
//! (`exercises/15-cancelar`) y contra la solución (`solutions/15-cancelar`).
//! Un módulo por ejercicio.
//!
//! Ninguna usa la red ni el reloj de verdad: las tramas llegan por un «grifo»
//! en memoria que la prueba abre byte a byte, las conexiones del servidor son
//! mensajes de un canal y el tiempo es el reloj en pausa de Tokio, que salta
//! al siguiente temporizador cuando no hay nada más que hacer.
//!
//! Para inyectar la cancelación en cada punto de espera, las pruebas sondean
//! tu *future* a mano con una tarea de imitación (`tokio_test::task::spawn`):
//! en cuanto devuelve `Pending`, lo sueltan, igual que haría un `select!`
//! cuya otra rama hubiera ganado, y vuelven a llamar.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::Poll;
use std::time::Duration;

use tokio::time::Instant;

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

/// Espera `futuro` como mucho `limite` de reloj: una respuesta equivocada
/// falla con un mensaje que dice qué se esperaba, no se queda colgada.
async fn como_mucho<F: Future>(limite: Duration, que: &str, futuro: F) -> F::Output {
    match tokio::time::timeout(limite, futuro).await {
        Ok(valor) => valor,
        Err(_) => panic!("{que}: seguía esperando al cabo de {limite:?} de reloj"),
    }
}

/// Lo que pasó al conducir un *future* con [`conduce`].
struct Conducido<T> {
    valor: T,
    /// Cuándo se despertó, contado desde el principio (reloj en pausa).
    despertares: Vec<Duration>,
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
            return Conducido { valor, despertares };
        }
        loop {
            for _ in 0..5 {
                tokio::task::yield_now().await;
            }
            if tarea.is_woken() {
                break;
            }
            assert!(inicio.elapsed() < limite, "{que} seguía sin terminar al cabo de {limite:?} de reloj");
            tokio::time::advance(Duration::from_millis(1)).await;
        }
        despertares.push(inicio.elapsed());
        assert!(
            despertares.len() <= MAX_DESPERTARES,
            "{que} se despertó más de {MAX_DESPERTARES} veces (las primeras, a los {:?}): \
             sondea en un bucle en vez de esperar dormido con `.await`",
            &despertares[..5]
        );
    }
}

/// `LectorDeTramas::siguiente` enseña:
/// 1. Lee tramas con su longitud big-endian de 4 bytes, también la vacía y
///    una de más de 65 535 bytes (`lee_tramas_de_un_guion`,
///    `una_trama_grande_a_trozos_impares`).
/// 2. Es seguro ante la cancelación: si sueltan su *future* en cualquier
///    `.await`, no se pierde ni un byte (`cancelar_en_cada_espera_no_pierde_nada`,
///    también con lecturas de tres bytes).
/// 3. Lo que sobra de una lectura se guarda para la trama siguiente
///    (`varias_tramas_en_una_lectura`).
/// 4. El final limpio entre tramas es `Ok(None)`; a mitad de trama o de
///    cabecera, un error `UnexpectedEof` (`el_final_a_mitad_es_un_error`).
/// 5. Sin datos, espera dormido y lo despierta la llegada de datos
///    (`sin_datos_espera_dormido`).
mod tramas {
    use std::collections::VecDeque;
    use std::io;
    use std::pin::Pin;
    use std::sync::{Arc, Mutex};
    use std::task::{Context, Poll, Waker};

    use cancelar::tramas::LectorDeTramas;
    use tokio::io::{AsyncRead, ReadBuf};
    use tokio_test::{assert_pending, assert_ready};

    #[derive(Default)]
    struct EstadoGrifo {
        datos: VecDeque<u8>,
        cerrado: bool,
        despertador: Option<Waker>,
        por_lectura: usize,
    }

    /// Un `AsyncRead` en memoria que la prueba llena a mano. Cada lectura da
    /// como mucho `por_lectura` bytes; sin datos, devuelve `Pending` y guarda
    /// el despertador.
    #[derive(Clone)]
    struct Grifo(Arc<Mutex<EstadoGrifo>>);

    impl Grifo {
        fn new(por_lectura: usize) -> Self {
            Grifo(Arc::new(Mutex::new(EstadoGrifo { por_lectura, ..Default::default() })))
        }
        fn echa(&self, bytes: &[u8]) {
            let mut estado = self.0.lock().unwrap();
            estado.datos.extend(bytes);
            if let Some(d) = estado.despertador.take() {
                d.wake();
            }
        }
        fn cierra(&self) {
            let mut estado = self.0.lock().unwrap();
            estado.cerrado = true;
            if let Some(d) = estado.despertador.take() {
                d.wake();
            }
        }
    }

    impl AsyncRead for Grifo {
        fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
            let mut estado = self.0.lock().unwrap();
            if estado.datos.is_empty() {
                if estado.cerrado {
                    return Poll::Ready(Ok(()));
                }
                estado.despertador = Some(cx.waker().clone());
                return Poll::Pending;
            }
            let n = estado.por_lectura.min(buf.remaining()).min(estado.datos.len());
            for _ in 0..n {
                let b = estado.datos.pop_front().unwrap();
                buf.put_slice(&[b]);
            }
            Poll::Ready(Ok(()))
        }
    }

    fn codifica(tramas: &[Vec<u8>]) -> Vec<u8> {
        let mut flujo = Vec::new();
        for t in tramas {
            flujo.extend_from_slice(&(t.len() as u32).to_be_bytes());
            flujo.extend_from_slice(t);
        }
        flujo
    }

    fn tramas_de_prueba() -> Vec<Vec<u8>> {
        vec![
            b"hola".to_vec(),
            Vec::new(),
            (0..300u32).map(|i| (i * 7 % 251) as u8).collect(),
            b"x".to_vec(),
            b"adios".to_vec(),
        ]
    }

    /// Echa el flujo de `trozo` en `trozo` bytes. Tras cada trozo, llama a
    /// `siguiente` hasta que devuelve `Pending`, y entonces suelta el
    /// *future*: una cancelación en ese punto de espera.
    fn con_cancelaciones(trozo: usize, por_lectura: usize) {
        let tramas = tramas_de_prueba();
        let flujo = codifica(&tramas);
        let grifo = Grifo::new(por_lectura);
        let mut lector = LectorDeTramas::new(grifo.clone());
        let mut recibidas = Vec::new();
        let mut cancelaciones = 0;
        for pedazo in flujo.chunks(trozo) {
            grifo.echa(pedazo);
            loop {
                let mut llamada = tokio_test::task::spawn(lector.siguiente());
                match llamada.poll() {
                    Poll::Ready(Ok(Some(trama))) => recibidas.push(trama),
                    Poll::Ready(Ok(None)) => {
                        panic!("siguiente() dio Ok(None) con el flujo aún abierto, tras {} tramas", recibidas.len())
                    }
                    Poll::Ready(Err(e)) => panic!("siguiente() dio un error con el flujo aún abierto: {e}"),
                    Poll::Pending => {
                        // Aquí se cancela: se suelta el future a mitad.
                        cancelaciones += 1;
                        break;
                    }
                }
            }
        }
        grifo.cierra();
        let mut ultima = tokio_test::task::spawn(lector.siguiente());
        let fin = assert_ready!(ultima.poll(), "con el flujo cerrado, siguiente() no debe esperar");
        assert!(
            matches!(fin, Ok(None)),
            "al cerrar el flujo justo tras la última trama, esperaba Ok(None), no {fin:?}"
        );
        drop(ultima);
        assert!(cancelaciones > tramas.len(), "la prueba debía cancelar muchas veces ({cancelaciones})");
        assert_eq!(recibidas.len(), tramas.len(), "tras {cancelaciones} cancelaciones se perdieron tramas o bytes");
        for (i, (r, t)) in recibidas.iter().zip(&tramas).enumerate() {
            assert_eq!(
                r, t,
                "la trama {i} llegó distinta tras {cancelaciones} cancelaciones: se perdieron bytes al soltar el \
                 future. Guarda lo leído en `self`, no en variables del future"
            );
        }
    }

    #[test]
    fn cancelar_en_cada_espera_no_pierde_nada() {
        // Un byte cada vez: cada `.await` de lectura es un punto de cancelación.
        con_cancelaciones(1, 1);
        // Trozos de 5 bytes leídos de 3 en 3: cortes en sitios distintos.
        con_cancelaciones(5, 3);
    }

    #[test]
    fn varias_tramas_en_una_lectura() {
        let tramas = tramas_de_prueba();
        let grifo = Grifo::new(4096);
        grifo.echa(&codifica(&tramas));
        grifo.cierra();
        let mut lector = LectorDeTramas::new(grifo);
        for (i, t) in tramas.iter().enumerate() {
            let mut llamada = tokio_test::task::spawn(lector.siguiente());
            let r = assert_ready!(llamada.poll(), "todo el flujo estaba ya disponible: no hay que esperar");
            match r {
                Ok(Some(trama)) => assert_eq!(
                    &trama, t,
                    "la trama {i} no coincide: lo que sobra de una lectura es el principio de la siguiente trama; \
                     guárdalo"
                ),
                otro => panic!("esperaba la trama {i} ({} bytes), no {otro:?}: ¿tiraste lo que sobraba?", t.len()),
            }
        }
        let mut llamada = tokio_test::task::spawn(lector.siguiente());
        let r = assert_ready!(llamada.poll());
        assert!(matches!(r, Ok(None)), "tras la última trama y el cierre, esperaba Ok(None), no {r:?}");
    }

    #[test]
    fn una_trama_grande_a_trozos_impares() {
        // 66 051 = 0x0001_0203: los tres bytes bajos de la longitud cuentan, y en orden big-endian.
        let grande: Vec<u8> = (0..66_051u32).map(|i| (i % 253) as u8).collect();
        let tramas = vec![grande, b"fin".to_vec()];
        let grifo = Grifo::new(7);
        let mut lector = LectorDeTramas::new(grifo.clone());
        let mut recibidas = Vec::new();
        for pedazo in codifica(&tramas).chunks(1001) {
            grifo.echa(pedazo);
            loop {
                let mut llamada = tokio_test::task::spawn(lector.siguiente());
                match llamada.poll() {
                    Poll::Ready(Ok(Some(t))) => recibidas.push(t),
                    Poll::Ready(otro) => panic!("con el flujo abierto, siguiente() dio {otro:?}"),
                    Poll::Pending => break,
                }
            }
        }
        assert_eq!(recibidas.len(), 2, "esperaba 2 tramas (de 66 051 y 3 bytes)");
        assert_eq!(recibidas[0].len(), 66_051, "la longitud es un u32 big-endian: 00 01 02 03 son 66 051 bytes");
        assert!(recibidas[0] == tramas[0] && recibidas[1] == tramas[1], "el contenido de las tramas no coincide");
    }

    #[test]
    fn el_final_a_mitad_es_un_error() {
        for (flujo, que) in [
            (vec![0u8, 0, 0, 5, 1, 2], "a mitad del contenido de una trama"),
            (vec![0u8, 0], "a mitad de la cabecera de 4 bytes"),
            (vec![0u8, 0, 0, 1, 9, 0, 0, 0], "a mitad de la cabecera de la segunda trama"),
        ] {
            let grifo = Grifo::new(2);
            grifo.echa(&flujo);
            grifo.cierra();
            let mut lector = LectorDeTramas::new(grifo);
            let mut errores = Vec::new();
            for _ in 0..3 {
                let mut llamada = tokio_test::task::spawn(lector.siguiente());
                match assert_ready!(llamada.poll(), "con el flujo cerrado no hay que esperar") {
                    Ok(Some(_)) => continue,
                    Ok(None) => panic!(
                        "el flujo se acabó {que} y siguiente() dio Ok(None): eso esconde bytes perdidos; \
                         devuelve un error UnexpectedEof"
                    ),
                    Err(e) => {
                        errores.push(e.kind());
                        break;
                    }
                }
            }
            assert_eq!(
                errores,
                vec![io::ErrorKind::UnexpectedEof],
                "el flujo se acabó {que}: esperaba un error UnexpectedEof"
            );
        }
        // Sin ningún byte: un final limpio.
        let grifo = Grifo::new(2);
        grifo.cierra();
        let mut lector = LectorDeTramas::new(grifo);
        let mut llamada = tokio_test::task::spawn(lector.siguiente());
        let r = assert_ready!(llamada.poll());
        assert!(matches!(r, Ok(None)), "un flujo vacío y cerrado es Ok(None), no {r:?}");
    }

    #[test]
    fn sin_datos_espera_dormido() {
        let grifo = Grifo::new(64);
        let mut lector = LectorDeTramas::new(grifo.clone());
        let mut llamada = tokio_test::task::spawn(lector.siguiente());
        assert_pending!(llamada.poll(), "sin datos, siguiente() tiene que esperar");
        assert!(!llamada.is_woken(), "sin datos nuevos, nadie debería despertar a siguiente(): espera con `.await`");
        grifo.echa(&[0, 0, 0, 3, b'a']);
        assert!(llamada.is_woken(), "llegaron datos y siguiente() no se despertó");
        assert_pending!(llamada.poll(), "con media trama, siguiente() tiene que seguir esperando");
        assert!(!llamada.is_woken(), "con media trama y nada más, siguiente() no debe despertarse sola");
        grifo.echa(b"bc");
        assert!(llamada.is_woken(), "llegó el resto de la trama y siguiente() no se despertó");
        let r = assert_ready!(llamada.poll());
        assert_eq!(r.unwrap(), Some(b"abc".to_vec()));
    }

    #[tokio::test]
    async fn lee_tramas_de_un_guion() {
        // Un guion de `tokio_test::io`: cada `read` es lo que da una lectura.
        let guion = tokio_test::io::Builder::new()
            .read(&[0, 0])
            .read(&[0, 3, b'a'])
            .read(b"bc")
            .read(&[0, 0, 0, 0, 0, 0])
            .read(&[0, 2, b'o', b'k'])
            .build();
        let mut lector = LectorDeTramas::new(guion);
        assert_eq!(lector.siguiente().await.unwrap(), Some(b"abc".to_vec()), "la primera trama es «abc»");
        assert_eq!(lector.siguiente().await.unwrap(), Some(Vec::new()), "la segunda trama está vacía");
        assert_eq!(lector.siguiente().await.unwrap(), Some(b"ok".to_vec()), "la tercera trama es «ok»");
        assert_eq!(lector.siguiente().await.unwrap(), None, "después, el flujo se acaba limpio");
    }
}

/// `sirve` enseña:
/// 1. Cada conexión en su propia tarea: tres de 100 ms acaban a la vez
///    (`atiende_cada_conexion_en_su_tarea`).
/// 2. Tras cancelar `parar`, no se acepta ninguna conexión más
///    (`tras_parar_no_acepta_mas`).
/// 3. Las conexiones en curso terminan su trabajo si caben en el plazo, y
///    `sirve` vuelve en cuanto acaban, sin esperar al plazo
///    (`las_que_estan_en_curso_terminan`).
/// 4. Al vencer el plazo, corta las que quedan, las cuenta, y vuelve con la
///    cancelación completada (`al_vencer_el_plazo_corta_y_espera`).
/// 5. El plazo cuenta desde la cancelación, no desde la última conexión que
///    acabó (`el_plazo_cuenta_desde_parar`).
/// 6. Una conexión que acaba justo en el plazo no se pierde ni se cuenta
///    dos veces (`en_el_plazo_justo_no_se_pierde_nada`).
/// 7. Si el canal se cierra, espera a todas sin plazo
///    (`canal_cerrado_espera_a_todas`).
/// 8. Espera dormida: solo se despierta cuando pasa algo (`espera_dormida`).
mod apagado {
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use cancelar::apagado::{Informe, sirve};
    use tokio::sync::mpsc;
    use tokio::time::{Instant, sleep};
    use tokio_util::sync::CancellationToken;

    use super::{Guarda, como_mucho, conduce, contador, cuenta, tareas_vivas};

    const LIMITE: Duration = Duration::from_secs(30);

    /// Lo que la prueba sabe de las conexiones: cuáles empezaron, cuáles
    /// acabaron su trabajo y cuántas se soltaron.
    #[derive(Clone, Default)]
    struct Diario {
        empezadas: Arc<Mutex<Vec<u32>>>,
        acabadas: Arc<Mutex<Vec<u32>>>,
        soltadas: Arc<std::sync::atomic::AtomicUsize>,
    }

    impl Diario {
        fn new() -> Self {
            Diario { soltadas: contador(), ..Default::default() }
        }
        fn empezadas(&self) -> Vec<u32> {
            self.empezadas.lock().unwrap().clone()
        }
        fn acabadas(&self) -> Vec<u32> {
            let mut v = self.acabadas.lock().unwrap().clone();
            v.sort();
            v
        }
        /// La función que atiende una conexión `(id, lo que tarda)`.
        fn atiende(&self) -> impl Fn((u32, Duration)) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send>> + use<> {
            let diario = self.clone();
            move |(id, dura)| {
                let diario = diario.clone();
                Box::pin(async move {
                    let _guarda = Guarda(diario.soltadas.clone());
                    diario.empezadas.lock().unwrap().push(id);
                    sleep(dura).await;
                    diario.acabadas.lock().unwrap().push(id);
                })
            }
        }
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// Manda las conexiones `(id, ms)` y deja que `sirve` las acepte.
    async fn manda(tx: &mpsc::Sender<(u32, Duration)>, conexiones: &[(u32, u64)]) {
        for &(id, dura) in conexiones {
            tx.send((id, ms(dura))).await.expect("sirve soltó el receptor antes de tiempo");
        }
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test(start_paused = true)]
    async fn atiende_cada_conexion_en_su_tarea() {
        let diario = Diario::new();
        let (tx, rx) = mpsc::channel(16);
        let parar = CancellationToken::new();
        let servidor = tokio::spawn(sirve(rx, diario.atiende(), parar.clone(), ms(1000)));
        manda(&tx, &[(1, 100), (2, 100), (3, 100)]).await;
        sleep(ms(101)).await;
        assert_eq!(
            diario.acabadas(),
            vec![1, 2, 3],
            "tres conexiones de 100 ms a la vez tendrían que haber acabado a los 101 ms: atiende cada una en su \
             propia tarea (tokio::spawn o JoinSet), no una detrás de otra"
        );
        parar.cancel();
        let informe = como_mucho(LIMITE, "sirve tras cancelar sin nada en curso", servidor).await.unwrap();
        assert_eq!(informe, Informe { atendidas: 3, cortadas: 0 });
    }

    #[tokio::test(start_paused = true)]
    async fn tras_parar_no_acepta_mas() {
        let diario = Diario::new();
        let (tx, rx) = mpsc::channel(16);
        let parar = CancellationToken::new();
        let servidor = tokio::spawn(sirve(rx, diario.atiende(), parar.clone(), ms(1000)));
        manda(&tx, &[(1, 30)]).await;
        // Se cancela y, en el mismo instante, llegan más conexiones.
        parar.cancel();
        for id in 2..=6 {
            tx.send((id, ms(10))).await.unwrap();
        }
        let informe = como_mucho(LIMITE, "sirve tras cancelar", servidor).await.unwrap();
        assert_eq!(
            diario.empezadas(),
            vec![1],
            "después de cancelar `parar` no se acepta ninguna conexión más (usa `biased;` en el select! con la \
             rama de la cancelación primero)"
        );
        assert_eq!(informe, Informe { atendidas: 1, cortadas: 0 });
    }

    #[tokio::test(start_paused = true)]
    async fn las_que_estan_en_curso_terminan() {
        let diario = Diario::new();
        let (tx, rx) = mpsc::channel(16);
        let parar = CancellationToken::new();
        let inicio = Instant::now();
        let servidor = tokio::spawn(sirve(rx, diario.atiende(), parar.clone(), ms(100)));
        manda(&tx, &[(1, 10), (2, 20), (3, 30)]).await;
        sleep(ms(5)).await;
        parar.cancel();
        let informe = como_mucho(LIMITE, "sirve con tres conexiones en curso", servidor).await.unwrap();
        assert_eq!(
            diario.acabadas(),
            vec![1, 2, 3],
            "al parar había tres conexiones en curso que acababan dentro del plazo: déjalas terminar, no las cortes"
        );
        assert_eq!(informe, Informe { atendidas: 3, cortadas: 0 });
        assert_eq!(
            inicio.elapsed(),
            ms(30),
            "la última conexión acabó a los 30 ms: vuelve entonces, sin esperar a que venza el plazo"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn al_vencer_el_plazo_corta_y_espera() {
        let diario = Diario::new();
        let (tx, rx) = mpsc::channel(16);
        let parar = CancellationToken::new();
        let inicio = Instant::now();
        let cancela = {
            let parar = parar.clone();
            tokio::spawn(async move {
                sleep(ms(5)).await;
                parar.cancel();
            })
        };
        tx.send((1, ms(10))).await.unwrap();
        tx.send((2, ms(3_600_000))).await.unwrap();
        tx.send((3, ms(3_600_000))).await.unwrap();
        let informe = como_mucho(LIMITE, "sirve", sirve(rx, diario.atiende(), parar.clone(), ms(50))).await;
        // Nada de ceder el control antes de mirar: al volver, la cancelación tiene que estar completada.
        assert_eq!(
            cuenta(&diario.soltadas),
            3,
            "al volver, las conexiones cortadas tienen que estar soltadas: después de abort, espera a que \
             terminen (join_next o shutdown)"
        );
        assert_eq!(tareas_vivas(), 0, "al volver, no puede quedar ninguna tarea de conexión viva");
        assert_eq!(diario.acabadas(), vec![1], "solo la conexión de 10 ms llegó a acabar");
        assert_eq!(informe, Informe { atendidas: 1, cortadas: 2 }, "una atendida y dos cortadas");
        assert_eq!(inicio.elapsed(), ms(55), "se canceló a los 5 ms con un plazo de 50 ms: vuelve a los 55 ms");
        cancela.await.unwrap();
        drop(tx);
    }

    #[tokio::test(start_paused = true)]
    async fn el_plazo_cuenta_desde_parar() {
        let diario = Diario::new();
        let (tx, rx) = mpsc::channel(16);
        let parar = CancellationToken::new();
        let inicio = Instant::now();
        let servidor = tokio::spawn(sirve(rx, diario.atiende(), parar.clone(), ms(100)));
        // Van acabando cada 40 ms: un plazo que vuelve a empezar con cada una no vencería nunca a tiempo.
        manda(&tx, &[(1, 40), (2, 80), (3, 120), (4, 160), (5, 3_600_000)]).await;
        sleep(ms(5)).await;
        parar.cancel();
        let informe = como_mucho(LIMITE, "sirve", servidor).await.unwrap();
        assert_eq!(
            diario.acabadas(),
            vec![1, 2],
            "cancelado a los 5 ms con plazo de 100 ms, solo caben las conexiones que acaban a los 40 y 80 ms. \
             Calcula el instante final una vez (timeout_at) en vez de un timeout nuevo por cada conexión"
        );
        assert_eq!(informe, Informe { atendidas: 2, cortadas: 3 });
        assert_eq!(inicio.elapsed(), ms(105), "el plazo vence a los 105 ms: vuelve entonces");
    }

    #[tokio::test(start_paused = true)]
    async fn en_el_plazo_justo_no_se_pierde_nada() {
        for (dura, plazo) in [(55, 50), (54, 49), (57, 52)] {
            let diario = Diario::new();
            let (tx, rx) = mpsc::channel(16);
            let parar = CancellationToken::new();
            let servidor = tokio::spawn(sirve(rx, diario.atiende(), parar.clone(), ms(plazo)));
            manda(&tx, &[(1, dura), (2, 3_600_000), (3, 1)]).await;
            sleep(ms(5)).await;
            parar.cancel();
            let informe = como_mucho(LIMITE, "sirve", servidor).await.unwrap();
            let acabadas = diario.acabadas();
            assert_eq!(
                informe.atendidas + informe.cortadas,
                3,
                "se aceptaron 3 conexiones: cada una es atendida o cortada, ni más ni menos ({informe:?})"
            );
            assert_eq!(
                informe.atendidas,
                acabadas.len(),
                "una conexión que acaba justo al vencer el plazo: cuéntala como atendida solo si acabó su trabajo \
                 (acabaron {acabadas:?}, informe {informe:?})"
            );
            assert!(acabadas.contains(&3), "la conexión de 1 ms acabó mucho antes del plazo y no consta");
        }
    }

    #[tokio::test(start_paused = true)]
    async fn canal_cerrado_espera_a_todas() {
        let diario = Diario::new();
        let (tx, rx) = mpsc::channel(16);
        let parar = CancellationToken::new();
        let inicio = Instant::now();
        let servidor = tokio::spawn(sirve(rx, diario.atiende(), parar.clone(), ms(10)));
        manda(&tx, &[(1, 20), (2, 200)]).await;
        drop(tx);
        let informe = como_mucho(LIMITE, "sirve con el canal cerrado", servidor).await.unwrap();
        assert_eq!(
            informe,
            Informe { atendidas: 2, cortadas: 0 },
            "con el canal cerrado y sin cancelar `parar`, no hay plazo: espera a que acaben todas"
        );
        assert_eq!(inicio.elapsed(), ms(200), "la última acaba a los 200 ms: vuelve entonces");
        assert!(!parar.is_cancelled());
    }

    #[tokio::test(start_paused = true)]
    async fn espera_dormida() {
        let diario = Diario::new();
        let (tx, rx) = mpsc::channel(16);
        let parar = CancellationToken::new();
        tx.send((1, ms(30))).await.unwrap();
        let cancela = {
            let parar = parar.clone();
            tokio::spawn(async move {
                sleep(ms(60)).await;
                parar.cancel();
            })
        };
        let c = conduce("sirve", LIMITE, sirve(rx, diario.atiende(), parar.clone(), ms(1000))).await;
        assert_eq!(c.valor, Informe { atendidas: 1, cortadas: 0 });
        // Los sucesos: la conexión acaba a los 30 ms y se cancela a los 60 ms.
        for t in &c.despertares {
            let ms = t.as_millis();
            assert!(
                (ms == 30 || ms == 60) && t.subsec_nanos() % 1_000_000 == 0,
                "sirve se despertó a los {t:?}, cuando no pasaba nada (solo a los 30 y 60 ms). Todos sus \
                 despertares: {:?}. Espera con `.await` (select!), no con try_recv y sleep cortos",
                c.despertares
            );
        }
        assert!(c.despertares.len() <= 4, "sirve se despertó demasiadas veces: {:?}", c.despertares);
        cancela.await.unwrap();
        drop(tx);
    }
}

/// `ejecuta` enseña:
/// 1. Cada nodo es una tarea, y todos empiezan (`cada_nodo_es_una_tarea`).
/// 2. Cancelar la raíz termina el árbol entero, cada hijo antes que su
///    padre, y `ejecuta` vuelve cuando ya no queda ninguna tarea
///    (`cancelar_la_raiz_termina_todo_en_orden`).
/// 3. Los tokens de los hijos son hijos del token del padre: cancelar una
///    rama termina esa rama y nada más, también a dos niveles de la raíz
///    (`cancelar_una_rama_no_toca_el_resto`).
/// 4. Un token cancelado antes de empezar termina el árbol igual
///    (`cancelado_antes_de_empezar`).
/// 5. Los nodos esperan dormidos a que los cancelen: mientras nadie cancela,
///    el *runtime* no tiene nada que hacer (`esperan_dormidos`).
mod arbol {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use cancelar::arbol::{Nodo, Registro, ejecuta};
    use tokio_util::sync::CancellationToken;

    use super::{como_mucho, tareas_vivas};

    const LIMITE: Duration = Duration::from_secs(10);

    #[derive(Default)]
    struct Anota {
        empiezan: Mutex<Vec<String>>,
        terminan: Mutex<Vec<String>>,
        tokens: Mutex<HashMap<String, CancellationToken>>,
    }

    impl Registro for Anota {
        fn empieza(&self, nombre: &str, token: CancellationToken) {
            self.empiezan.lock().unwrap().push(nombre.to_string());
            self.tokens.lock().unwrap().insert(nombre.to_string(), token);
        }
        fn termina(&self, nombre: &str) {
            self.terminan.lock().unwrap().push(nombre.to_string());
        }
    }

    impl Anota {
        fn terminan(&self) -> Vec<String> {
            self.terminan.lock().unwrap().clone()
        }
        fn token(&self, nombre: &str) -> CancellationToken {
            self.tokens.lock().unwrap().get(nombre).unwrap_or_else(|| panic!("el nodo {nombre} no empezó")).clone()
        }
    }

    fn n(nombre: &str, hijos: Vec<Nodo>) -> Nodo {
        Nodo::new(nombre, hijos)
    }

    /// raíz → a → (a1, a2 → a21 → a211), b → b1, c: cuatro niveles bajo la raíz.
    fn arbol() -> Nodo {
        n(
            "raiz",
            vec![
                n("a", vec![n("a1", vec![]), n("a2", vec![n("a21", vec![n("a211", vec![])])])]),
                n("b", vec![n("b1", vec![])]),
                n("c", vec![]),
            ],
        )
    }

    /// Los nombres de cada nodo con los de todos sus descendientes.
    fn descendientes(nodo: &Nodo, salida: &mut Vec<(String, Vec<String>)>) -> Vec<String> {
        let mut todos = Vec::new();
        for hijo in &nodo.hijos {
            todos.push(hijo.nombre.clone());
            todos.extend(descendientes(hijo, salida));
        }
        salida.push((nodo.nombre.clone(), todos.clone()));
        todos
    }

    /// Espera, cediendo el control, a que hayan empezado `cuantos` nodos.
    async fn espera_a_que_empiecen(anota: &Anota, cuantos: usize) {
        for _ in 0..1000 {
            if anota.empiezan.lock().unwrap().len() >= cuantos {
                return;
            }
            tokio::task::yield_now().await;
        }
        panic!(
            "solo empezaron {:?} de {cuantos} nodos: ¿lanzas cada hijo con tokio::spawn (o un JoinSet) y avisas con \
             registro.empieza?",
            anota.empiezan.lock().unwrap()
        );
    }

    /// Cada nodo termina después que todos sus descendientes.
    fn comprueba_orden(anota: &Anota) {
        let terminan = anota.terminan();
        let posicion = |nombre: &str| terminan.iter().position(|x| x == nombre);
        let mut pares = Vec::new();
        descendientes(&arbol(), &mut pares);
        for (nodo, hijos) in pares {
            let Some(p) = posicion(&nodo) else { continue };
            for h in hijos {
                match posicion(&h) {
                    Some(q) if q < p => {}
                    _ => panic!(
                        "{nodo} terminó antes que su descendiente {h} (orden: {terminan:?}): un nodo espera a que \
                         terminen sus hijos antes de avisar con registro.termina"
                    ),
                }
            }
        }
    }

    #[tokio::test(start_paused = true)]
    async fn cada_nodo_es_una_tarea() {
        let anota = Arc::new(Anota::default());
        let token = CancellationToken::new();
        let arbol_en_marcha = tokio::spawn(ejecuta(arbol(), token.clone(), anota.clone()));
        espera_a_que_empiecen(&anota, 9).await;
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(anota.terminan().is_empty(), "nadie canceló nada y terminaron {:?}", anota.terminan());
        assert!(!arbol_en_marcha.is_finished(), "ejecuta volvió sin que nadie cancelara la raíz");
        assert!(
            tareas_vivas() >= 9,
            "hay {} tareas vivas para un árbol de 9 nodos: cada nodo tiene que ser una tarea (tokio::spawn o JoinSet)",
            tareas_vivas()
        );
        token.cancel();
        como_mucho(LIMITE, "ejecuta tras cancelar la raíz", arbol_en_marcha).await.unwrap();
    }

    #[tokio::test(start_paused = true)]
    async fn cancelar_la_raiz_termina_todo_en_orden() {
        let anota = Arc::new(Anota::default());
        let token = CancellationToken::new();
        let cancela = {
            let token = token.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(10)).await;
                token.cancel();
            })
        };
        como_mucho(LIMITE, "ejecuta tras cancelar la raíz", ejecuta(arbol(), token, anota.clone())).await;
        assert_eq!(
            anota.terminan().len(),
            9,
            "ejecuta volvió y solo habían terminado {:?}: vuelve cuando todo el árbol haya terminado",
            anota.terminan()
        );
        comprueba_orden(&anota);
        assert_eq!(anota.terminan().last().map(String::as_str), Some("raiz"), "la raíz termina la última");
        cancela.await.unwrap();
        assert_eq!(tareas_vivas(), 0, "ejecuta volvió y quedan tareas del árbol vivas");
    }

    #[tokio::test(start_paused = true)]
    async fn cancelar_una_rama_no_toca_el_resto() {
        let anota = Arc::new(Anota::default());
        let token = CancellationToken::new();
        let arbol_en_marcha = tokio::spawn(ejecuta(arbol(), token.clone(), anota.clone()));
        espera_a_que_empiecen(&anota, 9).await;

        // Una rama a dos niveles de la raíz: a2 y lo que cuelga de ella.
        anota.token("a2").cancel();
        tokio::time::sleep(Duration::from_millis(10)).await;
        let mut terminan = anota.terminan();
        terminan.sort();
        assert_eq!(
            terminan,
            vec!["a2", "a21", "a211"],
            "al cancelar el token de a2 tienen que terminar a2, a21 y a211, y nada más: dale a cada hijo \
             `token.child_token()`, no un clon del token del padre"
        );
        assert_eq!(anota.terminan(), vec!["a211", "a21", "a2"], "la rama termina de abajo arriba");

        anota.token("b").cancel();
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert_eq!(anota.terminan().len(), 5, "al cancelar b terminan b y b1: {:?}", anota.terminan());
        assert!(!arbol_en_marcha.is_finished(), "ejecuta volvió con la raíz sin cancelar");

        token.cancel();
        como_mucho(LIMITE, "ejecuta tras cancelar la raíz", arbol_en_marcha).await.unwrap();
        assert_eq!(anota.terminan().len(), 9, "al cancelar la raíz termina todo: {:?}", anota.terminan());
        comprueba_orden(&anota);
    }

    #[tokio::test(start_paused = true)]
    async fn cancelado_antes_de_empezar() {
        let anota = Arc::new(Anota::default());
        let token = CancellationToken::new();
        token.cancel();
        como_mucho(LIMITE, "ejecuta con el token ya cancelado", ejecuta(arbol(), token, anota.clone())).await;
        assert_eq!(
            anota.terminan().len(),
            9,
            "con la raíz ya cancelada, todo el árbol termina: {:?}",
            anota.terminan()
        );
        comprueba_orden(&anota);
    }

    #[tokio::test(start_paused = true)]
    async fn esperan_dormidos() {
        let anota = Arc::new(Anota::default());
        let token = CancellationToken::new();
        let arbol_en_marcha = tokio::spawn(ejecuta(arbol(), token.clone(), anota.clone()));
        espera_a_que_empiecen(&anota, 9).await;
        tokio::time::sleep(Duration::from_millis(5)).await;
        // Cada vez que el runtime se queda sin nada que hacer, aparca su hilo
        // (y, con el reloj en pausa, adelanta el reloj al siguiente temporizador).
        let metricas = tokio::runtime::Handle::current().metrics();
        let antes = metricas.worker_park_count(0);
        tokio::time::sleep(Duration::from_millis(200)).await;
        let aparcadas = metricas.worker_park_count(0) - antes;
        assert!(
            aparcadas <= 5,
            "en 200 ms sin cancelar nada, el runtime se despertó {aparcadas} veces: algún nodo pregunta \
             is_cancelled() en un bucle con sleep cortos. Espera con `token.cancelled().await`"
        );
        token.cancel();
        como_mucho(LIMITE, "ejecuta tras cancelar la raíz", arbol_en_marcha).await.unwrap();
    }
}
