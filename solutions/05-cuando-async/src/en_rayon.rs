//! Ejercicio 2 (solución): `pool.spawn` no espera a nadie; el resultado (o el
//! pánico) vuelve por un `oneshot`, y esperar su receptor es un `.await` como
//! cualquier otro.

use rayon::ThreadPool;

/// Ejecuta `trabajo` en `pool` y devuelve su resultado sin bloquear la tarea.
pub async fn en_rayon<T, F>(pool: &ThreadPool, trabajo: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let (tx, rx) = tokio::sync::oneshot::channel();
    pool.spawn(move || {
        // Un pánico dentro de `pool.spawn` no llega a nadie: Rayon lo pasa a
        // su panic_handler o, si no tiene, aborta el proceso. Se atrapa aquí
        // y viaja por el canal, como el resultado.
        let resultado = std::panic::catch_unwind(std::panic::AssertUnwindSafe(trabajo));
        // Si la tarea ya no espera (se canceló), el envío falla: no importa.
        let _ = tx.send(resultado);
    });
    match rx.await.expect("el pool de Rayon soltó el canal sin responder") {
        Ok(valor) => valor,
        // El pánico del trabajo, con su carga original, ahora en la tarea.
        Err(panico) => std::panic::resume_unwind(panico),
    }
}
