//! Respuesta incorrecta plausible: «si el envío falla, algo va muy mal», y
//! el hilo de Rayon entra en pánico. Pero el envío falla en un caso
//! normal: la tarea que esperaba se canceló. Y un pánico en `pool.spawn`
//! aborta el proceso entero si el pool no tiene `panic_handler`.

use rayon::ThreadPool;

pub async fn en_rayon<T, F>(pool: &ThreadPool, trabajo: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let (tx, rx) = tokio::sync::oneshot::channel();
    pool.spawn(move || {
        if tx.send(trabajo()).is_err() {
            panic!("nadie recibió el resultado");
        }
    });
    rx.await.expect("el pool de Rayon soltó el canal sin responder")
}
