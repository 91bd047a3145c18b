//! Respuesta incorrecta: se salta bien los trabajos cancelados, pero quien
//! espera mira el `oneshot` en bucle con `try_recv` y `yield_now` en lugar
//! de esperarlo con `.await`: no duerme, se despierta a sí mismo sin parar
//! mientras el trabajo calcula.

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
    pool.spawn(move || {
        if tx.is_closed() {
            return; // quien esperaba se fue mientras el trabajo hacía cola
        }
        // Si se va mientras calculamos, el envío falla: no pasa nada.
        let _ = tx.send(trabajo());
    });
    let mut rx = rx;
    loop {
        match rx.try_recv() {
            Ok(valor) => return valor,
            Err(oneshot::error::TryRecvError::Empty) => tokio::task::yield_now().await,
            Err(oneshot::error::TryRecvError::Closed) => panic!("el pool de Rayon soltó el canal sin responder"),
        }
    }
}
