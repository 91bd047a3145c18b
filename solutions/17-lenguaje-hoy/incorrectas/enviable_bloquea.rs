//! Respuesta incorrecta plausible: deja el *trait* como está y quita el
//! `.await` de la tarea, esperando con `block_in_place` y `Handle::block_on`.
//! Compila, pero bloquea un hilo trabajador mientras espera, y en un
//! *runtime* de un solo hilo `block_in_place` entra en pánico.

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
    tokio::spawn(async move {
        // Sin ningún `.await` en la tarea, su future no guarda el de `lee`.
        tokio::task::block_in_place(|| {
            let lecturas = claves.iter().map(|&clave| fuente.lee(clave));
            tokio::runtime::Handle::current().block_on(futures::future::join_all(lecturas))
        })
    })
}
