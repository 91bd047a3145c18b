//! Respuesta incorrecta plausible: el resultado vuelve por un canal estándar
//! y la tarea pregunta con `try_recv` una y otra vez, cediendo con
//! `yield_now` entre pregunta y pregunta. No bloquea el ejecutor, pero la
//! tarea nunca duerme: gasta CPU sondeando mientras Rayon calcula.

use rayon::ThreadPool;

pub async fn en_rayon<T, F>(pool: &ThreadPool, trabajo: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let (tx, rx) = std::sync::mpsc::channel();
    pool.spawn(move || {
        let _ = tx.send(trabajo());
    });
    loop {
        match rx.try_recv() {
            Ok(valor) => return valor,
            Err(std::sync::mpsc::TryRecvError::Empty) => tokio::task::yield_now().await,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => panic!("Rayon soltó el canal sin responder"),
        }
    }
}
