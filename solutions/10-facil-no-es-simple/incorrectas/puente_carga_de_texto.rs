//! Respuesta incorrecta: da por hecho que la carga del pánico es texto y lo
//! saca con `downcast` y `expect`. Con `panic!("...")` funciona; con
//! `panic_any(404)` el cierre entra en pánico otra vez al leer la carga, ese
//! segundo pánico se escapa a Rayon y quien espera recibe `SinRespuesta`.

use std::panic::{AssertUnwindSafe, catch_unwind};

use tokio::sync::oneshot;

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
    let (tx, rx) = oneshot::channel();
    pool.spawn(move || {
        // AssertUnwindSafe: si hay pánico, nadie volverá a usar `trabajo`.
        let resultado = catch_unwind(AssertUnwindSafe(trabajo)).map_err(|carga| {
            let mensaje = match carga.downcast::<String>() {
                Ok(texto) => *texto,
                Err(carga) => carga.downcast::<&str>().map(|t| t.to_string()).expect("un pánico lleva texto"),
            };
            FalloEnRayon::Panico(mensaje)
        });
        // Si quien esperaba ya no está, no hay a quién avisar.
        let _ = tx.send(resultado);
    });
    match rx.await {
        Ok(resultado) => resultado,
        // El emisor se destruyó sin enviar: el cierre nunca se ejecutó.
        Err(_) => Err(FalloEnRayon::SinRespuesta),
    }
}
