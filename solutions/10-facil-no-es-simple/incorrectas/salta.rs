//! Respuesta incorrecta: mira `is_closed` después de calcular, no antes. Se
//! ahorra el envío, que no costaba nada, y no se ahorra el cálculo.

use rayon::ThreadPool;
use tokio::sync::oneshot;

pub async fn a_rayon_si_esperan<T, F>(pool: &ThreadPool, trabajo: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let (tx, rx) = oneshot::channel();
    pool.spawn(move || {
        let resultado = trabajo();
        if !tx.is_closed() {
            let _ = tx.send(resultado);
        }
    });
    rx.await.expect("el pool de Rayon soltó el canal sin responder")
}
