//! Ejercicio 3 (solución): `is_closed` justo antes de empezar. Es la última
//! ocasión de ahorrarse el trabajo; después, ya no se puede interrumpir. Y
//! mirar no garantiza nada para luego: el envío puede fallar igualmente, y se
//! ignora (el `oneshot` es el de Tokio con una costura para las pruebas).

use rayon::ThreadPool;

use crate::oneshot;

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
    rx.await.expect("el pool de Rayon soltó el canal sin responder")
}
