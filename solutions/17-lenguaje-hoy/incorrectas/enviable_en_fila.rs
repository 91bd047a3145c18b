//! Respuesta incorrecta plausible: arregla el *trait*, pero de paso cambia
//! `join_all` por un bucle con `.await`: las lecturas van una detrás de otra
//! y la tarea tarda la suma de todas, no lo que la más lenta.

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
        let mut valores = Vec::with_capacity(claves.len());
        for clave in claves {
            valores.push(fuente.lee(clave).await);
        }
        valores
    })
}
