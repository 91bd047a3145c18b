//! Respuesta incorrecta plausible: «lo saco a otra tarea». `tokio::spawn` crea
//! una tarea, no un hilo: el trabajo sigue corriendo en un hilo trabajador (en
//! un runtime de un hilo, el mismo hilo) y lo bloquea igual.

pub async fn aparta<T, F>(trabajo: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    tokio::spawn(async move { trabajo() }).await.unwrap()
}
