//! Ejercicio 2: manda el cálculo a un pool de Rayon y espera la respuesta
//! con un canal `oneshot`.
//!
//! Rayon es un pool de hilos pensado para CPU: tantos hilos como núcleos, y
//! nada de `async`. El puente con Tokio es un canal de un solo mensaje:
//! el hilo de Rayon envía el resultado por el emisor y la tarea espera el
//! receptor, que es un *future*. Mientras espera, su hilo trabajador queda
//! libre para otras tareas.
//!
//! Si la tarea que espera se cancela antes de que Rayon termine, el envío
//! del resultado falla. No es un error: que no entre en pánico el hilo de
//! Rayon por eso.
//!
//! Si el trabajo entra en pánico, `en_rayon` entra en pánico con la misma
//! carga, como `aparta`. Dentro de `pool.spawn` ese pánico no llegaría a la
//! tarea (Rayon aborta el proceso si el pool no tiene `panic_handler`):
//! atrápalo en el cierre con `std::panic::catch_unwind`, mándalo por el
//! canal y relánzalo en la tarea con `std::panic::resume_unwind`.

use rayon::ThreadPool;

/// Ejecuta `trabajo` en `pool` y devuelve su resultado sin bloquear la tarea.
pub async fn en_rayon<T, F>(pool: &ThreadPool, trabajo: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let _ = (pool, trabajo);
    todo!("crea un tokio::sync::oneshot::channel, usa pool.spawn y espera el receptor")
}
