//! Respuesta incorrecta plausible: arregla el *trait* y cambia `join_all` por
//! `FuturesUnordered`, que también lee a la vez, pero entrega los valores
//! según acaban, no en el orden de las claves.

use std::future::Future;
use std::sync::Arc;

use tokio::task::JoinHandle;

/// Una fuente de datos lenta: una base de datos, otro servicio.
pub trait Fuente {
    /// El valor guardado con la `clave`.
    fn lee(&self, clave: u32) -> impl Future<Output = String> + Send;
}

/// Lanza una tarea que lee todas las `claves` de `fuente` a la vez (no una
/// detrás de otra) y devuelve los valores en el orden de `claves`.
pub fn lanza_lecturas<F>(fuente: Arc<F>, claves: Vec<u32>) -> JoinHandle<Vec<String>>
where
    F: Fuente + Send + Sync + 'static,
{
    tokio::spawn(async move {
        use futures::StreamExt;
        let lecturas: futures::stream::FuturesUnordered<_> = claves.iter().map(|&clave| fuente.lee(clave)).collect();
        lecturas.collect().await
    })
}
