//! Respuesta incorrecta plausible: si la primera tarea que termina entró en
//! pánico, prueba con la siguiente, pero solo una vez. Con un pánico entre
//! las réplicas acierta; con dos pánicos antes de la ganadora devuelve
//! `None` aunque otra réplica iba a responder bien.

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
    let primera = match tareas.join_next().await? {
        Ok(valor) => Some(valor),
        // Se cayó: nos quedamos con la siguiente que termine.
        Err(_) => tareas.join_next().await?.ok(),
    };
    tareas.abort_all();
    primera
}
