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

/// Un asignador de memoria que cuenta, por hilo, los bytes reservados y aún
/// no liberados. Con el *runtime* de un hilo de `#[tokio::test]`, todo lo
/// que hace la prueba pasa en su hilo: otras pruebas a la vez no cuentan.
struct CuentaBytes;

thread_local! {
    static BYTES_VIVOS: std::cell::Cell<isize> = const { std::cell::Cell::new(0) };
}

fn suma_bytes(n: isize) {
    let _ = BYTES_VIVOS.try_with(|b| b.set(b.get() + n));
}

/// Los bytes reservados y no liberados por este hilo.
fn bytes_vivos() -> isize {
    BYTES_VIVOS.with(|b| b.get())
}

// SAFETY: delega todo en el asignador del sistema; solo lleva la cuenta.
unsafe impl std::alloc::GlobalAlloc for CuentaBytes {
    unsafe fn alloc(&self, forma: std::alloc::Layout) -> *mut u8 {
        // SAFETY: el mismo contrato que el nuestro.
        let p = unsafe { std::alloc::System.alloc(forma) };
        if !p.is_null() {
            suma_bytes(forma.size() as isize);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, forma: std::alloc::Layout) -> *mut u8 {
        // SAFETY: el mismo contrato que el nuestro.
        let p = unsafe { std::alloc::System.alloc_zeroed(forma) };
        if !p.is_null() {
            suma_bytes(forma.size() as isize);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, forma: std::alloc::Layout) {
        // SAFETY: el mismo contrato que el nuestro.
        unsafe { std::alloc::System.dealloc(p, forma) };
        suma_bytes(-(forma.size() as isize));
    }
    unsafe fn realloc(&self, p: *mut u8, forma: std::alloc::Layout, nuevo: usize) -> *mut u8 {
        // SAFETY: el mismo contrato que el nuestro.
        let q = unsafe { std::alloc::System.realloc(p, forma, nuevo) };
        if !q.is_null() {
            suma_bytes(nuevo as isize - forma.size() as isize);
        }
        q
    }
}

#[global_allocator]
static CUENTA_BYTES: CuentaBytes = CuentaBytes;

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

/// Espera `futuro` como mucho `limite` de reloj: una respuesta equivocada
/// falla con un mensaje que dice qué se esperaba, no se queda colgada.
async fn como_mucho<F: Future>(limite: Duration, que: &str, futuro: F) -> F::Output {
    match tokio::time::timeout(limite, futuro).await {
        Ok(valor) => valor,
        Err(_) => panic!("{que}: seguía esperando al cabo de {} de reloj", medidas::duracion(limite)),
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
            assert!(
                inicio.elapsed() < limite,
                "{que} seguía sin terminar al cabo de {} de reloj",
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

/// `LectorDeTramas::siguiente` enseña:
/// 1. Lee tramas con su longitud big-endian de 4 bytes, también la vacía
///    (en medio y al final del flujo) y una de más de 65 535 bytes
///    (`lee_tramas_de_un_guion`, `una_trama_vacia_al_final`,
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
/// 6. Una trama de `maximo` bytes vale y una de `maximo + 1` es
///    `InvalidData`, en cuanto llega su cabecera, sin esperar al contenido
///    (`el_maximo_vale_y_uno_mas_no`).
/// 7. Un error del lector llega tal cual y no tira lo pendiente
///    (`un_error_del_lector_llega_y_no_tira_nada`).
mod tramas {
    use std::collections::VecDeque;
    use std::io;
    use std::pin::Pin;
    use std::sync::{Arc, Mutex};
    use std::task::{Context, Poll, Waker};

    use cancelar::tramas::LectorDeTramas;
    use tokio::io::{AsyncRead, ReadBuf};
    use tokio_test::{assert_pending, assert_ready};

    /// Un máximo de sobra para las tramas de las pruebas que no lo miran.
    const MAXIMO: usize = 1 << 20;

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
        let mut lector = LectorDeTramas::new(grifo.clone(), MAXIMO);
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
        let mut lector = LectorDeTramas::new(grifo, MAXIMO);
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
        let mut lector = LectorDeTramas::new(grifo.clone(), MAXIMO);
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
            let mut lector = LectorDeTramas::new(grifo, MAXIMO);
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
        let mut lector = LectorDeTramas::new(grifo, MAXIMO);
        let mut llamada = tokio_test::task::spawn(lector.siguiente());
        let r = assert_ready!(llamada.poll());
        assert!(matches!(r, Ok(None)), "un flujo vacío y cerrado es Ok(None), no {r:?}");
    }

    #[test]
    fn sin_datos_espera_dormido() {
        let grifo = Grifo::new(64);
        let mut lector = LectorDeTramas::new(grifo.clone(), MAXIMO);
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
        assert_eq!(
            r.unwrap(),
            Some(b"abc".to_vec()),
            "llegó la trama entera (longitud 3 y «abc», en dos trozos): siguiente() da Ok(Some(\"abc\")), la cabecera \
             fuera"
        );
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
        let mut lector = LectorDeTramas::new(guion, MAXIMO);
        assert_eq!(lector.siguiente().await.unwrap(), Some(b"abc".to_vec()), "la primera trama es «abc»");
        assert_eq!(lector.siguiente().await.unwrap(), Some(Vec::new()), "la segunda trama está vacía");
        assert_eq!(lector.siguiente().await.unwrap(), Some(b"ok".to_vec()), "la tercera trama es «ok»");
        assert_eq!(lector.siguiente().await.unwrap(), None, "después, el flujo se acaba limpio");
    }

    #[tokio::test]
    async fn una_trama_vacia_al_final() {
        // Lo último que llega es una trama vacía: una cabecera sola, de 4 bytes y sin contenido.
        let guion = tokio_test::io::Builder::new().read(&[0, 0, 0, 2, b'o', b'k']).read(&[0, 0, 0, 0]).build();
        let mut lector = LectorDeTramas::new(guion, MAXIMO);
        assert_eq!(lector.siguiente().await.unwrap(), Some(b"ok".to_vec()), "la primera trama es «ok»");
        match lector.siguiente().await {
            Ok(Some(t)) if t.is_empty() => {}
            otro => panic!(
                "la última trama es vacía (una cabecera 00 00 00 00 y nada más) y siguiente() dio {otro:?}: con 4 \
                 bytes pendientes ya hay una trama entera"
            ),
        }
        assert_eq!(lector.siguiente().await.unwrap(), None, "tras la trama vacía, el flujo se acaba limpio");
        // Y byte a byte, soltando el future en cada espera.
        let grifo = Grifo::new(1);
        let mut lector = LectorDeTramas::new(grifo.clone(), MAXIMO);
        let mut recibidas = Vec::new();
        for byte in codifica(&[b"x".to_vec(), Vec::new()]) {
            grifo.echa(&[byte]);
            while let Poll::Ready(r) = tokio_test::task::spawn(lector.siguiente()).poll() {
                recibidas.push(r.expect("con el flujo abierto no hay errores").expect("ni final"));
            }
        }
        assert_eq!(recibidas, [b"x".to_vec(), Vec::new()], "la trama vacía del final llega en cuanto está su cabecera");
    }

    #[test]
    fn el_maximo_vale_y_uno_mas_no() {
        const MAX: usize = 10;
        // Justo el máximo y uno por debajo: valen.
        let grifo = Grifo::new(4096);
        grifo.echa(&codifica(&[vec![7; MAX - 1], vec![8; MAX]]));
        grifo.cierra();
        let mut lector = LectorDeTramas::new(grifo, MAX);
        for largo in [MAX - 1, MAX] {
            let r = assert_ready!(tokio_test::task::spawn(lector.siguiente()).poll());
            match r {
                Ok(Some(t)) if t.len() == largo => {}
                otro => panic!("una trama de {largo} bytes con un máximo de {MAX} vale, y siguiente() dio {otro:?}"),
            }
        }
        // Uno por encima, y una cabecera que anuncia 4 GiB: error en cuanto llega la cabecera,
        // sin esperar a un contenido que no llega (el flujo sigue abierto).
        for largo in [MAX as u32 + 1, u32::MAX] {
            let grifo = Grifo::new(4096);
            grifo.echa(&largo.to_be_bytes());
            grifo.echa(b"abc");
            let mut lector = LectorDeTramas::new(grifo, MAX);
            let mut llamada = tokio_test::task::spawn(lector.siguiente());
            match llamada.poll() {
                Poll::Ready(Err(e)) => assert_eq!(
                    e.kind(),
                    io::ErrorKind::InvalidData,
                    "una trama de {largo} bytes pasa del máximo de {MAX}: el error es InvalidData, no {e:?}"
                ),
                Poll::Ready(Ok(otro)) => {
                    panic!("una trama de {largo} bytes pasa del máximo de {MAX} y siguiente() dio Ok({otro:?})")
                }
                Poll::Pending => panic!(
                    "la cabecera anuncia {largo} bytes, más que el máximo de {MAX}, y siguiente() se quedó esperando el \
                     contenido: recházala en cuanto tengas la cabecera, sin guardar ni esperar lo que anuncia"
                ),
            }
        }
    }

    #[tokio::test]
    async fn un_error_del_lector_llega_y_no_tira_nada() {
        // Media trama, un error de lectura y el resto de la trama.
        let guion = tokio_test::io::Builder::new()
            .read(&[0, 0, 0, 3, b'a'])
            .read_error(io::Error::new(io::ErrorKind::ConnectionReset, "error de prueba"))
            .read(b"bc")
            .build();
        let mut lector = LectorDeTramas::new(guion, MAXIMO);
        match lector.siguiente().await {
            Err(e) => assert_eq!(
                e.kind(),
                io::ErrorKind::ConnectionReset,
                "el lector falló con ConnectionReset y siguiente() lo cambió por {e:?}: devuelve el error tal cual"
            ),
            Ok(otro) => panic!(
                "el lector falló a mitad de una trama y siguiente() dio Ok({otro:?}): un error no es el final del \
                 flujo; devuélvelo"
            ),
        }
        assert_eq!(
            lector.siguiente().await.unwrap(),
            Some(b"abc".to_vec()),
            "tras el error, el lector siguió dando datos: la «a» que ya estaba pendiente tiene que seguir ahí"
        );
        assert_eq!(
            lector.siguiente().await.unwrap(),
            None,
            "tras la trama «abc», el flujo acaba limpio entre tramas: Ok(None)"
        );
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
/// 9. Recoge las conexiones terminadas mientras sirve: la memoria no crece
///    con cada conexión (`no_guarda_las_terminadas_mientras_sirve`, con un
///    asignador de memoria que cuenta los bytes de cada hilo).
/// 10. Un pánico de una conexión cuenta como fallida, no sale de `sirve` y
///     el servidor sigue aceptando (`un_panico_es_una_fallida_y_el_servidor_sigue`).
/// 11. En un *runtime* de varios hilos, una conexión que está en pleno
///     sondeo cuando vence el plazo y llega el `abort`, y que termina ese
///     sondeo, está atendida, no cortada
///     (`lo_que_acaba_entre_el_plazo_y_el_corte_es_atendido`).
mod apagado {
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use cancelar::apagado::{Informe, sirve};
    use tokio::sync::mpsc;
    use tokio::time::{Instant, sleep};
    use tokio_util::sync::CancellationToken;

    use super::{Guarda, como_mucho, conduce, contador, cuenta, misma_duracion, tareas_vivas};

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
                    // Las conexiones de id 100 o más fallan al final de su trabajo.
                    assert!(id < 100, "la conexión {id} falla a propósito (la prueba lo espera)");
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
        assert_eq!(
            informe,
            Informe { atendidas: 3, cortadas: 0, fallidas: 0 },
            "sin nada en curso al cancelar, las 3 conexiones ya habían acabado: 3 atendidas, ninguna cortada ni \
             fallida"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn tras_parar_no_acepta_mas() {
        // Cuarenta veces: un select! sin `biased;` elige al azar qué rama mira primero, y la
        // mitad de las veces aceptaría una conexión de más. Cuarenta veces seguidas no acierta.
        for vuelta in 1..=40 {
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
                "en la vuelta {vuelta}: después de cancelar `parar` no se acepta ninguna conexión más (usa \
                 `biased;` en el select! con la rama de la cancelación primero)"
            );
            assert_eq!(
                informe,
                Informe { atendidas: 1, cortadas: 0, fallidas: 0 },
                "en la vuelta {vuelta}: solo se aceptó la conexión 1, que acabó dentro del plazo: 1 atendida, ninguna \
                 cortada"
            );
        }
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
        assert_eq!(
            informe,
            Informe { atendidas: 3, cortadas: 0, fallidas: 0 },
            "las 3 conexiones acaban dentro del plazo: 3 atendidas, ninguna cortada"
        );
        misma_duracion(
            inicio.elapsed(),
            ms(30),
            "la última conexión acabó a los 30 ms: vuelve entonces, sin esperar a que venza el plazo",
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
        assert_eq!(informe, Informe { atendidas: 1, cortadas: 2, fallidas: 0 }, "una atendida y dos cortadas");
        misma_duracion(inicio.elapsed(), ms(55), "se canceló a los 5 ms con un plazo de 50 ms: vuelve a los 55 ms");
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
        assert_eq!(
            informe,
            Informe { atendidas: 2, cortadas: 3, fallidas: 0 },
            "las que acaban a los 40 y 80 ms están atendidas; las otras 3, cortadas al vencer el plazo a los 105 ms"
        );
        misma_duracion(inicio.elapsed(), ms(105), "el plazo vence a los 105 ms: vuelve entonces");
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
            Informe { atendidas: 2, cortadas: 0, fallidas: 0 },
            "con el canal cerrado y sin cancelar `parar`, no hay plazo: espera a que acaben todas"
        );
        misma_duracion(inicio.elapsed(), ms(200), "la última acaba a los 200 ms: vuelve entonces");
        assert!(
            !parar.is_cancelled(),
            "`sirve` no cancela `parar` por su cuenta: el token es de quien llama, y aquí nadie lo canceló"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn no_guarda_las_terminadas_mientras_sirve() {
        let (tx, rx) = mpsc::channel(16);
        let parar = CancellationToken::new();
        // Conexiones que terminan enseguida: lo que quede de ellas es memoria retenida.
        let servidor = tokio::spawn(sirve(rx, |_: u32| async {}, parar.clone(), ms(10)));
        let envia = async |desde: u32, cuantas: u32| {
            for id in desde..desde + cuantas {
                tx.send(id).await.expect("sirve soltó el receptor antes de tiempo");
            }
            for _ in 0..10 {
                tokio::task::yield_now().await;
            }
        };
        envia(0, 200).await;
        let antes = super::bytes_vivos();
        envia(200, 2_000).await;
        let crecio = super::bytes_vivos() - antes;
        parar.cancel();
        let informe = como_mucho(LIMITE, "sirve", servidor).await.unwrap();
        assert_eq!(
            informe,
            Informe { atendidas: 2_200, cortadas: 0, fallidas: 0 },
            "las 2200 conexiones terminaron enseguida: todas atendidas, ninguna cortada"
        );
        assert!(
            crecio < 64 * 1024,
            "tras 2 000 conexiones que terminaron enseguida, la memoria creció {crecio} bytes mientras sirve: \
             guardas cada conexión terminada hasta el final. Recógelas mientras sirves (una rama \
             `Some(r) = en_curso.join_next()` en el select!)"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn un_panico_es_una_fallida_y_el_servidor_sigue() {
        let diario = Diario::new();
        let (tx, rx) = mpsc::channel(16);
        let parar = CancellationToken::new();
        let servidor = tokio::spawn(sirve(rx, diario.atiende(), parar.clone(), ms(100)));
        // La 101 falla a los 10 ms, mientras se sirve; la 102 falla a los 60, ya apagando.
        manda(&tx, &[(101, 10), (102, 60)]).await;
        sleep(ms(20)).await;
        // Tras el primer pánico, el servidor sigue aceptando.
        manda(&tx, &[(2, 10)]).await;
        sleep(ms(20)).await;
        parar.cancel();
        let informe = como_mucho(LIMITE, "sirve con conexiones que fallan", servidor)
            .await
            .expect("un pánico de una conexión no debe salir de sirve ni tumbar el servidor");
        assert_eq!(diario.empezadas(), vec![101, 102, 2], "tras el primer pánico, el servidor sigue aceptando");
        assert_eq!(
            informe,
            Informe { atendidas: 1, cortadas: 0, fallidas: 2 },
            "dos conexiones entraron en pánico (una mientras se servía y otra apagando) y una terminó: un pánico \
             no es una conexión atendida (mira JoinError::is_panic)"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn lo_que_acaba_entre_el_plazo_y_el_corte_es_atendido() {
        use std::sync::mpsc as std_mpsc;
        // La conexión 1 hace todo su trabajo en un solo sondeo largo, en otro hilo: empieza,
        // y no termina hasta que la prueba la suelta, mucho después de que venza el plazo y
        // llegue el abort. Un abort no para una tarea a mitad de un sondeo: cuando ese sondeo
        // acaba, la tarea ha terminado su trabajo. La 2 duerme una hora: esa sí se corta.
        let (empezo, ha_empezado) = std_mpsc::channel::<()>();
        let (soltar, suelta) = std_mpsc::channel::<()>();
        let (empezo, suelta) = (Arc::new(Mutex::new(empezo)), Arc::new(Mutex::new(suelta)));
        let acabadas = Arc::new(Mutex::new(Vec::new()));
        let atiende = {
            let acabadas = acabadas.clone();
            move |id: u32| {
                let (empezo, suelta, acabadas) = (empezo.clone(), suelta.clone(), acabadas.clone());
                Box::pin(async move {
                    if id == 1 {
                        empezo.lock().unwrap().send(()).unwrap();
                        let _ = suelta.lock().unwrap().recv_timeout(Duration::from_secs(10));
                    } else {
                        sleep(Duration::from_secs(3_600)).await;
                    }
                    acabadas.lock().unwrap().push(id);
                }) as std::pin::Pin<Box<dyn Future<Output = ()> + Send>>
            }
        };
        let (tx, rx) = mpsc::channel(16);
        let parar = CancellationToken::new();
        let servidor = tokio::spawn(sirve(rx, atiende, parar.clone(), ms(20)));
        tx.send(1).await.unwrap();
        tx.send(2).await.unwrap();
        // Un hilo aparte: espera a que la conexión 1 esté en su sondeo, cancela, y la suelta
        // 250 ms después (el plazo vence a los 20 ms).
        let control = std::thread::spawn(move || {
            ha_empezado.recv_timeout(Duration::from_secs(10)).expect("la conexión 1 no llegó a empezar");
            parar.cancel();
            std::thread::sleep(Duration::from_millis(250));
            soltar.send(()).unwrap();
        });
        let informe = tokio::time::timeout(Duration::from_secs(20), servidor)
            .await
            .expect("sirve no volvió")
            .expect("sirve no entra en pánico");
        control.join().unwrap();
        drop(tx);
        assert_eq!(acabadas.lock().unwrap().clone(), vec![1], "la conexión 1 terminó su trabajo");
        assert_eq!(
            informe,
            Informe { atendidas: 1, cortadas: 1, fallidas: 0 },
            "la conexión 1 estaba en pleno sondeo en otro hilo cuando llegó el abort, y terminó su trabajo: está \
             atendida. Cuenta lo que dice cada resultado de join_next (Ok es atendida), no las que quedaban al \
             abortar"
        );
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
        assert_eq!(
            c.valor,
            Informe { atendidas: 1, cortadas: 0, fallidas: 0 },
            "la conexión de 30 ms acabó antes de cancelar: 1 atendida, ninguna cortada"
        );
        // Los sucesos: la conexión acaba a los 30 ms y se cancela a los 60 ms.
        for t in &c.despertares {
            let ms = t.as_millis();
            assert!(
                (ms == 30 || ms == 60) && t.subsec_nanos() % 1_000_000 == 0,
                "sirve se despertó a los {}, cuando no pasaba nada (solo a los 30 y 60 ms). Todos sus \
                 despertares: {}. Espera con `.await` (select!), no con try_recv y sleep cortos",
                medidas::duracion(*t),
                medidas::duraciones(&c.despertares)
            );
        }
        assert!(
            c.despertares.len() <= 4,
            "sirve se despertó demasiadas veces: {}",
            medidas::duraciones(&c.despertares)
        );
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
/// 6. El pánico de un nodo sube por el árbol y sale de `ejecuta` con su
///    carga (`un_panico_sube_hasta_ejecuta`).
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
        /// El nodo que entra en pánico al empezar, si hay alguno.
        falla: Option<&'static str>,
    }

    impl Registro for Anota {
        fn empieza(&self, nombre: &str, token: CancellationToken) {
            self.empiezan.lock().unwrap().push(nombre.to_string());
            self.tokens.lock().unwrap().insert(nombre.to_string(), token);
            if self.falla == Some(nombre) {
                panic!("el nodo {nombre} falla a propósito");
            }
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
    async fn un_panico_sube_hasta_ejecuta() {
        // a21 entra en pánico al empezar (antes de lanzar a su hijo a211); los demás siguen.
        let anota = Arc::new(Anota { falla: Some("a21"), ..Anota::default() });
        let token = CancellationToken::new();
        let arbol_en_marcha = tokio::spawn(ejecuta(arbol(), token.clone(), anota.clone()));
        espera_a_que_empiecen(&anota, 8).await;
        token.cancel();
        let resultado = como_mucho(LIMITE, "ejecuta con un nodo que entró en pánico", arbol_en_marcha).await;
        let error = match resultado {
            Ok(()) => panic!(
                "el nodo a21 entró en pánico y ejecuta volvió como si nada: su padre, al esperarlo, tiene que \
                 volver a lanzar el pánico (JoinError::is_panic, std::panic::resume_unwind), y así hasta ejecuta"
            ),
            Err(error) => error,
        };
        assert!(error.is_panic(), "ejecuta no entró en pánico: {error:?}");
        let carga = error.into_panic();
        let mensaje = carga
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| carga.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        assert_eq!(
            mensaje, "el nodo a21 falla a propósito",
            "ejecuta tiene que entrar en pánico con la carga del pánico original (resume_unwind con into_panic)"
        );
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
