//! Respuesta incorrecta: se salta bien los trabajos cancelados antes de
//! empezar, pero si quien espera se va mientras el trabajo calcula, el envío
//! falla y el trabajo entra en pánico en un hilo de Rayon (que, sin un
//! `panic_handler`, aborta el proceso).

use rayon::ThreadPool;
use tokio::sync::oneshot;

pub async fn a_rayon_si_esperan<T, F>(pool: &ThreadPool, trabajo: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let (tx, rx) = oneshot::channel();
    pool.spawn(move || {
        if tx.is_closed() {
            return;
        }
        if tx.send(trabajo()).is_err() {
            panic!("nadie esperaba el resultado");
        }
    });
    rx.await.expect("el pool de Rayon soltó el canal sin responder")
}
