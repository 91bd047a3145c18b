//! Respuesta incorrecta plausible: usa `spawn_blocking` bien, pero `unwrap()`
//! convierte el pánico del trabajo en otro pánico con otro mensaje
//! («called `Result::unwrap()` on an `Err` value: JoinError::Panic(...)»).

pub async fn aparta<T, F>(trabajo: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    tokio::task::spawn_blocking(trabajo).await.unwrap()
}
