//! Ejercicio 1: saca el trabajo bloqueante del ejecutor con `spawn_blocking`.
//!
//! `aparta` recibe un trabajo que bloquea su hilo (cálculo largo, lectura de
//! un archivo con `std::fs`, una biblioteca síncrona...) y lo ejecuta en el
//! pool de hilos bloqueantes de Tokio. Mientras tanto, la tarea que llama a
//! `aparta` espera sin ocupar su hilo trabajador, y las demás tareas siguen
//! avanzando.
//!
//! Si el trabajo entra en pánico, `aparta` debe entrar en pánico con el
//! mismo valor (el mismo mensaje), no con otro que lo envuelva.

/// Ejecuta `trabajo` fuera del hilo trabajador y devuelve lo que devuelva.
pub async fn aparta<T, F>(trabajo: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let _ = trabajo;
    todo!("usa tokio::task::spawn_blocking y espera su JoinHandle")
}
