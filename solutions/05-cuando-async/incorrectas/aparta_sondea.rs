//! Respuesta incorrecta plausible: usa `spawn_blocking`, pero en vez de
//! esperar el JoinHandle con `.await` pregunta cada milisegundo si ya
//! terminó. Da el resultado y las demás tareas avanzan, pero la tarea que
//! espera se despierta cada milisegundo sin motivo: no duerme.

use std::time::Duration;

pub async fn aparta<T, F>(trabajo: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let tarea = tokio::task::spawn_blocking(trabajo);
    while !tarea.is_finished() {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    match tarea.await {
        Ok(valor) => valor,
        Err(error) => match error.try_into_panic() {
            Ok(panico) => std::panic::resume_unwind(panico),
            Err(error) => panic!("el trabajo se canceló: {error}"),
        },
    }
}
