//! Lección 15: cancelar sin perder nada.
//!
//! `cargo run -p leccion-15 --release` enseña tres cosas: qué se suelta y
//! qué no cuando se suelta un *future*; cómo un `select!` en bucle pierde
//! bytes y mensajes, y tres arreglos; y un apagado ordenado de un servidor,
//! con cada fase medida. Aquí están las piezas que se pueden probar solas.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use opciones::clap::{self, Parser};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio::time::sleep;

// ANCHOR: guarda
/// Una guarda de destrucción (*drop guard*): cuando se suelta, suma uno al
/// contador que comparte. Si va dentro de un *future*, cuenta cuándo se
/// suelta ese *future*: al terminar o al cancelarlo.
pub struct Guarda(pub Arc<AtomicUsize>);

impl Drop for Guarda {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}
// ANCHOR_END: guarda

/// Un contador compartido, para las guardas.
pub fn contador() -> Arc<AtomicUsize> {
    Arc::new(AtomicUsize::new(0))
}

/// Cuánto vale un contador.
pub fn cuenta(c: &AtomicUsize) -> usize {
    c.load(Ordering::SeqCst)
}

/// Opciones de la lección.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(
    name = "leccion-15",
    about = "Cancelar en Tokio: qué se suelta, qué se pierde y cómo apagar un servidor en orden."
)]
pub struct Opciones {
    /// Experimentos más pequeños (lo que usan las pruebas)
    #[arg(long)]
    pub rapido: bool,
    /// En la tercera parte, espera hasta N segundos a que le manden SIGTERM o Ctrl+C (sin esto, el apagado empieza a los 5 ms)
    #[arg(long, value_name = "N", value_parser = opciones::entre(1u64, 120))]
    pub senal: Option<u64>,
}

impl Opciones {
    /// Registros (o mensajes) en la segunda parte.
    pub fn registros(&self) -> u64 {
        if self.rapido { 200 } else { 1000 }
    }

    /// Clientes del servidor de la tercera parte.
    pub fn clientes(&self) -> usize {
        if self.rapido { 8 } else { 20 }
    }

    /// Cuánto espera la tercera parte una señal antes de apagar por su cuenta.
    pub fn espera_de_la_senal(&self) -> Duration {
        self.senal.map_or(Duration::from_millis(5), Duration::from_secs)
    }
}

/// Bytes de un registro: un número de secuencia y su complemento, para
/// reconocer un registro roto.
pub const REGISTRO: usize = 16;

/// El registro número `n`.
pub fn registro(n: u64) -> [u8; REGISTRO] {
    let mut r = [0u8; REGISTRO];
    r[..8].copy_from_slice(&n.to_be_bytes());
    r[8..].copy_from_slice(&(!n).to_be_bytes());
    r
}

/// ¿Es un registro íntegro? Devuelve su número.
pub fn valida(r: &[u8; REGISTRO]) -> Option<u64> {
    let n = u64::from_be_bytes(r[..8].try_into().unwrap());
    let c = u64::from_be_bytes(r[8..].try_into().unwrap());
    (c == !n).then_some(n)
}

/// Escribe `cuantos` registros, cada uno en dos mitades separadas por 1 ms,
/// y 1 ms entre registro y registro. Luego cierra.
pub async fn escritor_lento(mut salida: impl AsyncWrite + Unpin, cuantos: u64) {
    for n in 0..cuantos {
        let r = registro(n);
        salida.write_all(&r[..REGISTRO / 2]).await.unwrap();
        sleep(Duration::from_millis(1)).await;
        salida.write_all(&r[REGISTRO / 2..]).await.unwrap();
        sleep(Duration::from_millis(1)).await;
    }
    salida.shutdown().await.unwrap();
}

/// Cuenta de lo que llegó al lector.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Recuento {
    /// Registros que llegaron enteros.
    pub integros: u64,
    /// Registros que llegaron rotos (mitades de dos registros distintos).
    pub rotos: u64,
    /// Bytes escritos que ningún registro devuelto contiene.
    pub bytes_perdidos: u64,
    /// Veces que ganó la otra rama del `select!` (el latido).
    pub latidos: u64,
}

impl Recuento {
    fn anota(&mut self, r: &[u8; REGISTRO]) {
        match valida(r) {
            Some(_) => self.integros += 1,
            None => self.rotos += 1,
        }
    }
    fn cierra(mut self, escritos: u64) -> Self {
        self.bytes_perdidos = escritos * REGISTRO as u64 - (self.integros + self.rotos) * REGISTRO as u64;
        self
    }
}

/// Latido de la otra rama del `select!`: cada 3 ms.
pub const LATIDO: Duration = Duration::from_millis(3);

// ANCHOR: pierde_bytes
/// Mal: `read_exact` dentro de un `select!` en bucle. Cuando gana el latido,
/// el *future* de `read_exact` se suelta con la mitad del registro leída.
pub async fn lee_con_read_exact(mut entrada: impl AsyncRead + Unpin, escritos: u64) -> Recuento {
    let mut recuento = Recuento::default();
    let mut latido = tokio::time::interval(LATIDO);
    let mut r = [0u8; REGISTRO];
    loop {
        tokio::select! {
            leido = entrada.read_exact(&mut r) => match leido {
                Ok(_) => recuento.anota(&r),
                Err(_) => break, // fin del flujo
            },
            _ = latido.tick() => recuento.latidos += 1,
        }
    }
    recuento.cierra(escritos)
}
// ANCHOR_END: pierde_bytes

/// Lee un registro entero y devuelve también el lector, para poder crear la
/// siguiente lectura cuando esta acabe.
async fn un_registro<R: AsyncRead + Unpin>(mut entrada: R) -> (R, io::Result<[u8; REGISTRO]>) {
    let mut r = [0u8; REGISTRO];
    let leido = entrada.read_exact(&mut r).await.map(|_| r);
    (entrada, leido)
}

// ANCHOR: future_vivo
/// Arreglo 1: el mismo *future* de lectura vive entre vuelta y vuelta. El
/// `select!` lo sondea a través de `&mut`, así que cuando gana el latido no
/// se suelta; solo se crea otro cuando este ha terminado.
pub async fn lee_con_future_vivo<R: AsyncRead + Unpin>(entrada: R, escritos: u64) -> Recuento {
    let mut recuento = Recuento::default();
    let mut latido = tokio::time::interval(LATIDO);
    let lectura = un_registro(entrada);
    tokio::pin!(lectura);
    loop {
        tokio::select! {
            (entrada, leido) = &mut lectura => match leido {
                Ok(r) => {
                    recuento.anota(&r);
                    lectura.set(un_registro(entrada));
                }
                Err(_) => break,
            },
            _ = latido.tick() => recuento.latidos += 1,
        }
    }
    recuento.cierra(escritos)
}
// ANCHOR_END: future_vivo

// ANCHOR: en_su_tarea
/// Arreglo 2: la lectura vive en su propia tarea, que nadie cancela, y
/// entrega registros enteros por un canal. `recv` sí es seguro ante la
/// cancelación: si gana el latido, el mensaje sigue en el canal.
pub async fn lee_en_su_tarea(mut entrada: impl AsyncRead + Unpin + Send + 'static, escritos: u64) -> Recuento {
    let (tx, mut rx) = mpsc::channel(16);
    let lector = tokio::spawn(async move {
        let mut r = [0u8; REGISTRO];
        while entrada.read_exact(&mut r).await.is_ok() {
            if tx.send(r).await.is_err() {
                break;
            }
        }
    });
    let mut recuento = Recuento::default();
    let mut latido = tokio::time::interval(LATIDO);
    loop {
        tokio::select! {
            r = rx.recv() => match r {
                Some(r) => recuento.anota(&r),
                None => break,
            },
            _ = latido.tick() => recuento.latidos += 1,
        }
    }
    lector.await.expect("la tarea lectora no falla");
    recuento.cierra(escritos)
}
// ANCHOR_END: en_su_tarea

/// Cuenta de los mensajes de un productor.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Entregas {
    pub entregados: u64,
    pub perdidos: u64,
}

/// Un consumidor lento: saca un mensaje cada 2 ms y devuelve cuántos sacó.
pub async fn consumidor_lento(mut rx: mpsc::Receiver<u64>) -> u64 {
    let mut n = 0;
    while rx.recv().await.is_some() {
        n += 1;
        sleep(Duration::from_millis(2)).await;
    }
    n
}

// ANCHOR: pierde_mensajes
/// Mal: `send` dentro de un `select!` con un latido. Si el canal está lleno
/// y gana el latido, el *future* de `send` se suelta con el mensaje dentro.
pub async fn produce_con_send(cuantos: u64) -> Entregas {
    let (tx, rx) = mpsc::channel(1);
    let consumidor = tokio::spawn(consumidor_lento(rx));
    let mut latido = tokio::time::interval(LATIDO);
    let mut perdidos = 0;
    for n in 0..cuantos {
        tokio::select! {
            _ = tx.send(n) => {}
            _ = latido.tick() => perdidos += 1, // el mensaje n se fue con el future
        }
    }
    drop(tx);
    Entregas { entregados: consumidor.await.unwrap(), perdidos }
}
// ANCHOR_END: pierde_mensajes

// ANCHOR: reserva
/// Arreglo: primero `reserve`, que solo pide sitio. Si gana el latido, se
/// pierde el turno en la cola, no el mensaje, que sigue en nuestras manos.
pub async fn produce_con_reserve(cuantos: u64) -> Entregas {
    let (tx, rx) = mpsc::channel(1);
    let consumidor = tokio::spawn(consumidor_lento(rx));
    let mut latido = tokio::time::interval(LATIDO);
    let mut n = 0;
    while n < cuantos {
        tokio::select! {
            sitio = tx.reserve() => {
                sitio.expect("el consumidor sigue vivo").send(n);
                n += 1;
            }
            _ = latido.tick() => {} // nada se pierde: n no se ha movido
        }
    }
    drop(tx);
    Entregas { entregados: consumidor.await.unwrap(), perdidos: 0 }
}
// ANCHOR_END: reserva

/// Milisegundos, para imprimir.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

// ANCHOR: senales
/// Las dos señales con las que se pide apagar un servicio: SIGTERM, la que
/// mandan systemd, `docker stop` o Kubernetes antes de un SIGKILL, y SIGINT,
/// la de Ctrl+C. Se registran al crear el valor: desde ese momento Tokio
/// tiene instalado su manejador y ninguna de las dos termina ya el proceso
/// por sí sola; de pararlo se encarga quien espera en [`Senales::espera`].
pub struct Senales {
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
}

impl Senales {
    /// Registra los manejadores. Necesita estar dentro de un *runtime*.
    pub fn registra() -> io::Result<Senales> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(Senales { term: signal(SignalKind::terminate())?, int: signal(SignalKind::interrupt())? })
        }
        #[cfg(not(unix))]
        {
            Ok(Senales {})
        }
    }

    /// Espera la primera de las dos y dice cuál fue. Es seguro ante la
    /// cancelación (`Signal::recv` lo es): puede ser una rama de un `select!`.
    pub async fn espera(&mut self) -> &'static str {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.term.recv() => "SIGTERM",
                _ = self.int.recv() => "SIGINT (Ctrl+C)",
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            "Ctrl+C"
        }
    }
}
// ANCHOR_END: senales

// ANCHOR: gracia
/// El periodo de gracia de la lección: lo que espera quien manda SIGTERM
/// antes de mandar SIGKILL (en Kubernetes son 30 s por defecto; aquí,
/// para que la lección acabe enseguida, 150 ms).
pub const GRACIA: Duration = Duration::from_millis(150);

/// Lo que se reserva de la gracia para dejar de aceptar, cortar lo que quede
/// y escribir el informe.
pub const MARGEN: Duration = Duration::from_millis(50);

/// El plazo de la fase 2, contado desde que llega la señal: lo que queda de
/// la gracia después del margen. Si el margen no cabe, no hay fase 2.
pub const fn plazo_de_la_fase_2(gracia: Duration, margen: Duration) -> Duration {
    gracia.saturating_sub(margen)
}
// ANCHOR_END: gracia

/// El capítulo del libro: cada bloque de Rust se compila como prueba de
/// documentación de este crate, que ya tiene Tokio y tokio-util.
#[cfg(doctest)]
#[doc = include_str!("../../../book/15-cancelar.md")]
pub struct CapituloDelLibro;

#[cfg(test)]
mod pruebas {
    use super::*;

    fn flujo(cuantos: u64) -> tokio::io::DuplexStream {
        let (escribe, lee) = tokio::io::duplex(64);
        tokio::spawn(escritor_lento(escribe, cuantos));
        lee
    }

    #[test]
    fn opciones() {
        let a = |v: &[&str]| opciones::lee::<Opciones>(v.iter().copied());
        assert_eq!(a(&[]).unwrap().registros(), 1000);
        assert_eq!(a(&["--rapido"]).unwrap().clientes(), 8);
        assert!(a(&["--lento"]).unwrap_err().contains("desconocida"));
        assert_eq!(a(&[]).unwrap().espera_de_la_senal(), Duration::from_millis(5));
        assert_eq!(a(&["--senal", "30"]).unwrap().espera_de_la_senal(), Duration::from_secs(30));
        assert!(a(&["--senal", "0"]).unwrap_err().contains("entre 1 y 120"));
    }

    #[test]
    fn el_plazo_sale_de_la_gracia() {
        assert_eq!(plazo_de_la_fase_2(GRACIA, MARGEN), Duration::from_millis(100));
        assert_eq!(plazo_de_la_fase_2(Duration::from_secs(30), Duration::from_secs(5)), Duration::from_secs(25));
        assert_eq!(plazo_de_la_fase_2(MARGEN, GRACIA), Duration::ZERO);
    }

    #[test]
    fn registros() {
        assert_eq!(valida(&registro(7)), Some(7));
        let mut roto = registro(7);
        roto[8..].copy_from_slice(&registro(8)[..8]);
        assert_eq!(valida(&roto), None);
    }

    #[tokio::test(start_paused = true)]
    async fn read_exact_en_el_select_pierde_bytes() {
        let r = lee_con_read_exact(flujo(50), 50).await;
        assert!(r.bytes_perdidos > 0 && r.rotos > 0, "{r:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn los_arreglos_no_pierden_nada() {
        for r in [lee_con_future_vivo(flujo(50), 50).await, lee_en_su_tarea(flujo(50), 50).await] {
            assert_eq!((r.integros, r.rotos, r.bytes_perdidos), (50, 0, 0), "{r:?}");
            assert!(r.latidos > 0, "el latido tenía que ganar alguna vez: {r:?}");
        }
    }

    #[tokio::test(start_paused = true)]
    async fn send_pierde_y_reserve_no() {
        let mal = produce_con_send(100).await;
        assert!(mal.perdidos > 0 && mal.entregados + mal.perdidos == 100, "{mal:?}");
        assert_eq!(produce_con_reserve(100).await, Entregas { entregados: 100, perdidos: 0 });
    }
}
