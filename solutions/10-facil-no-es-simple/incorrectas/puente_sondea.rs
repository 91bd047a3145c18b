//! Respuesta incorrecta: el resultado viaja por un canal de `std` y quien
//! espera lo mira en bucle con `try_recv` y `yield_now`. Nunca bloquea y
//! devuelve lo que debe, pero no duerme: se despierta a sí mismo una y otra
//! vez mientras el trabajo calcula, y gasta CPU en un hilo de Tokio.

use std::panic::{AssertUnwindSafe, catch_unwind};

use std::sync::mpsc;

use std::any::Any;
use std::fmt;

use rayon::ThreadPool;

/// Lo que puede salir mal al mandar un trabajo a Rayon.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FalloEnRayon {
    /// El trabajo entró en pánico; dentro va el mensaje del pánico.
    Panico(String),
    /// El trabajo no llegó a ejecutarse: el pool se destruyó antes.
    SinRespuesta,
}

impl fmt::Display for FalloEnRayon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FalloEnRayon::Panico(mensaje) => write!(f, "el trabajo entró en pánico en Rayon: {mensaje}"),
            FalloEnRayon::SinRespuesta => write!(f, "el pool de Rayon se cerró sin ejecutar el trabajo"),
        }
    }
}

impl std::error::Error for FalloEnRayon {}

/// El texto de la carga de un pánico (lo que devuelve `catch_unwind` en su
/// `Err`). `panic!("texto")` lleva un `&str`; `panic!("{x}")`, un `String`.
///
/// Ojo: pásale `&*carga`, no `&carga`. Una `Box<dyn Any>` también es `Any`, y
/// con `&carga` preguntarías por el tipo de la caja, no por el de su contenido.
pub fn mensaje_de_panico(carga: &(dyn Any + Send)) -> String {
    if let Some(texto) = carga.downcast_ref::<&str>() {
        texto.to_string()
    } else if let Some(texto) = carga.downcast_ref::<String>() {
        texto.clone()
    } else {
        "pánico sin mensaje de texto".to_string()
    }
}

/// Ejecuta `trabajo` en `pool`; el pánico, si lo hay, vuelve como error.
pub async fn a_rayon<T, F>(pool: &ThreadPool, trabajo: F) -> Result<T, FalloEnRayon>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let (tx, rx) = mpsc::channel();
    pool.spawn(move || {
        // AssertUnwindSafe: si hay pánico, nadie volverá a usar `trabajo`.
        let resultado =
            catch_unwind(AssertUnwindSafe(trabajo)).map_err(|carga| FalloEnRayon::Panico(mensaje_de_panico(&*carga)));
        // Si quien esperaba ya no está, no hay a quién avisar.
        let _ = tx.send(resultado);
    });
    loop {
        match rx.try_recv() {
            Ok(resultado) => return resultado,
            Err(mpsc::TryRecvError::Disconnected) => return Err(FalloEnRayon::SinRespuesta),
            Err(mpsc::TryRecvError::Empty) => tokio::task::yield_now().await,
        }
    }
}
