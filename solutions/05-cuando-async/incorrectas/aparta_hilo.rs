//! Respuesta incorrecta plausible: un hilo nuevo por trabajo y un `oneshot`
//! para la respuesta. No bloquea el ejecutor y propaga el pánico, pero no
//! usa el pool de hilos bloqueantes de Tokio: cada llamada crea (y
//! destruye) un hilo del sistema, sin límite ni reutilización.

pub async fn aparta<T, F>(trabajo: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let (tx, rx) = tokio::sync::oneshot::channel();
    std::thread::spawn(move || {
        let resultado = std::panic::catch_unwind(std::panic::AssertUnwindSafe(trabajo));
        let _ = tx.send(resultado);
    });
    match rx.await.expect("el hilo soltó el canal sin responder") {
        Ok(valor) => valor,
        Err(panico) => std::panic::resume_unwind(panico),
    }
}
