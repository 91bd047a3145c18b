//! Respuesta incorrecta plausible: `timeout` sobre el `JoinHandle`. Da los
//! tres resultados bien, pero cuando vence el plazo `timeout` suelta el
//! handle, y soltarlo no cancela: la tarea sigue corriendo, desligada.

use std::future::Future;
use std::time::Duration;

use tokio::task::JoinError;

#[derive(Debug)]
pub enum Final<T> {
    Terminada(T),
    Agotada,
    Fallida(JoinError),
}

pub async fn con_plazo<F>(plazo: Duration, trabajo: F) -> Final<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    match tokio::time::timeout(plazo, tokio::spawn(trabajo)).await {
        Ok(Ok(valor)) => Final::Terminada(valor),
        Ok(Err(error)) => Final::Fallida(error),
        Err(_agotado) => Final::Agotada,
    }
}
