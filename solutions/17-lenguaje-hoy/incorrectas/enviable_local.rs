//! Respuesta incorrecta plausible: `spawn_local` no exige `Send`, así que
//! compila sin tocar el *trait*, pero solo funciona dentro de un `LocalSet`,
//! y la tarea queda atada al hilo que la lanzó. Las pruebas deben rechazarla.

use std::sync::Arc;

use tokio::task::JoinHandle;

/// Una fuente de datos lenta: una base de datos, otro servicio.
#[allow(async_fn_in_trait)]
pub trait Fuente {
    /// El valor guardado con la `clave`.
    async fn lee(&self, clave: u32) -> String;
}

/// Lanza una tarea que lee todas las `claves` de `fuente` a la vez (no una
/// detrás de otra) y devuelve los valores en el orden de `claves`.
pub fn lanza_lecturas<F>(fuente: Arc<F>, claves: Vec<u32>) -> JoinHandle<Vec<String>>
where
    F: Fuente + Send + Sync + 'static,
{
    tokio::task::spawn_local(async move {
        let lecturas = claves.iter().map(|&clave| fuente.lee(clave));
        futures::future::join_all(lecturas).await
    })
}
