//! Respuesta incorrecta plausible: `install` ejecuta el trabajo en el pool de
//! Rayon, sí, pero el hilo que llama se queda bloqueado esperando a que
//! termine. Ese hilo es el trabajador de Tokio: nadie más avanza.

use rayon::ThreadPool;

pub async fn en_rayon<T, F>(pool: &ThreadPool, trabajo: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    pool.install(trabajo)
}
