//! Respuesta incorrecta plausible: llama a `abort` y vuelve enseguida. La
//! cancelación está pedida, pero no completada: cuando `con_plazo` vuelve,
//! la tarea sigue viva y su *future* sin soltar.

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
    let mut tarea = tokio::spawn(trabajo);
    match tokio::time::timeout(plazo, &mut tarea).await {
        Ok(Ok(valor)) => Final::Terminada(valor),
        Ok(Err(error)) => Final::Fallida(error),
        Err(_agotado) => {
            tarea.abort();
            Final::Agotada
        }
    }
}
