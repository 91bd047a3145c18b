//! Ejercicio 1 (solución): la promesa `Send` se escribe en el *trait*, con
//! la firma sin azúcar sintáctico `-> impl Future<Output = String> + Send`. Las
//! implementaciones siguen escribiendo `async fn lee`, y el compilador
//! comprueba en cada una que su *future* cumple la promesa.

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
        let lecturas = claves.iter().map(|&clave| fuente.lee(clave));
        futures::future::join_all(lecturas).await
    })
}
