//! Respuesta incorrecta plausible: `rayon::spawn` en vez de `pool.spawn`.
//! Funciona y no bloquea, pero el trabajo va al pool global de Rayon, no al
//! que te pasaron (con su tamaño y su configuración).

use rayon::ThreadPool;

pub async fn en_rayon<T, F>(pool: &ThreadPool, trabajo: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let _ = pool;
    let (tx, rx) = tokio::sync::oneshot::channel();
    rayon::spawn(move || {
        let _ = tx.send(trabajo());
    });
    rx.await.expect("el pool de Rayon soltó el canal sin responder")
}
