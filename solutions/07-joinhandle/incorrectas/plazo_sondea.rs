//! Respuesta incorrecta plausible: en vez de esperar el JoinHandle con
//! `.await`, mira cada 5 ms si la tarea ha terminado (`is_finished`). Da
//! los resultados correctos, pero se despierta sin motivo cada 5 ms y
//! vuelve tarde: una tarea que acaba a los 7 ms se recoge a los 10.

use std::future::Future;
use std::time::Duration;

use tokio::task::JoinError;

/// Cómo acabó la tarea lanzada por [`con_plazo`].
#[derive(Debug)]
pub enum Final<T> {
    /// Terminó a tiempo con este valor.
    Terminada(T),
    /// Se acabó el plazo y la tarea quedó cancelada.
    Agotada,
    /// La tarea entró en pánico.
    Fallida(JoinError),
}

pub async fn con_plazo<F>(plazo: Duration, trabajo: F) -> Final<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    let inicio = tokio::time::Instant::now();
    let tarea = tokio::spawn(trabajo);
    loop {
        if tarea.is_finished() {
            return match tarea.await {
                Ok(valor) => Final::Terminada(valor),
                Err(error) => Final::Fallida(error),
            };
        }
        if inicio.elapsed() >= plazo {
            tarea.abort();
            return match tarea.await {
                Ok(valor) => Final::Terminada(valor),
                Err(error) if error.is_cancelled() => Final::Agotada,
                Err(error) => Final::Fallida(error),
            };
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}
