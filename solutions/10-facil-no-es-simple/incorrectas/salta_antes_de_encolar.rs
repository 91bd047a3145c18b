//! Respuesta incorrecta: mira `is_closed` antes de mandar el trabajo a Rayon,
//! en la tarea que espera. En ese momento quien espera sigue ahí (es quien
//! está ejecutando el código), así que nunca se salta nada: la cancelación
//! llega después, mientras el trabajo hace cola.

use rayon::ThreadPool;
use tokio::sync::oneshot;

/// Ejecuta `trabajo` en `pool` y devuelve su resultado; si cuando le llega el
/// turno ya nadie espera, no lo ejecuta.
pub async fn a_rayon_si_esperan<T, F>(pool: &ThreadPool, trabajo: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let (tx, rx) = oneshot::channel();
    if tx.is_closed() {
        return rx.await.expect("el pool de Rayon soltó el canal sin responder");
    }
    pool.spawn(move || {
        let _ = tx.send(trabajo());
    });
    rx.await.expect("el pool de Rayon soltó el canal sin responder")
}
