//! Ejercicio 1: un puente a Rayon que devuelve el pánico como error.
//!
//! El puente del capítulo 5 tenía un punto ciego. Si el trabajo entra en
//! pánico dentro de `pool.spawn`, el pánico no vuelve a quien espera: Rayon se
//! lo pasa al `panic_handler` del pool (y, si el pool no tiene uno, aborta el
//! proceso entero). El emisor del `oneshot` se destruye sin enviar nada, y
//! quien espera solo ve que el canal se cerró, sin saber por qué.
//!
//! `a_rayon(pool, trabajo)` ejecuta `trabajo` en `pool` y devuelve:
//!
//! - `Ok(valor)` si el trabajo terminó bien;
//! - `Err(FalloEnRayon::Panico(mensaje))` si entró en pánico, con el mensaje
//!   original;
//! - `Err(FalloEnRayon::SinRespuesta)` si el trabajo no llegó a ejecutarse.
//!
//! Atrapa el pánico dentro del cierre que mandas a Rayon, con
//! `std::panic::catch_unwind`, y manda por el canal el `Result`.
//! [`mensaje_de_panico`] saca el texto de la carga del pánico. Como en el
//! capítulo 5, quien llama no puede quedarse bloqueado: `pool.spawn`, no
//! `pool.install`.

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
    let _ = (pool, trabajo);
    todo!("pool.spawn y un oneshot, como en el capítulo 5, pero mandando el resultado de catch_unwind")
}
