//! Respuesta incorrecta plausible: se queda con la primera tarea que
//! termina, aunque haya terminado en pánico.

use std::future::Future;

use tokio::task::JoinSet;

pub async fn la_primera<F>(trabajos: Vec<F>) -> Option<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    let mut tareas = JoinSet::new();
    for trabajo in trabajos {
        tareas.spawn(trabajo);
    }
    let primera = tareas.join_next().await?;
    tareas.abort_all();
    primera.ok()
}
