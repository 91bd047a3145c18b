//! Ejercicio 2 (solución): `pool.spawn` no espera a nadie; el resultado vuelve
//! por un `oneshot`, y esperar su receptor es un `.await` como cualquier otro.

use rayon::ThreadPool;

/// Ejecuta `trabajo` en `pool` y devuelve su resultado sin bloquear la tarea.
pub async fn en_rayon<T, F>(pool: &ThreadPool, trabajo: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let (tx, rx) = tokio::sync::oneshot::channel();
    pool.spawn(move || {
        // Si la tarea ya no espera (se canceló), el envío falla: no importa.
        let _ = tx.send(trabajo());
    });
    rx.await.expect("el pool de Rayon soltó el canal sin responder")
}
