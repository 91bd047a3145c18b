//! Respuesta incorrecta plausible: cancela bien y espera a que la
//! cancelación se complete, pero trata cualquier `Err` del JoinHandle como
//! un fallo. El `JoinError` de una tarea cancelada no es un pánico: al
//! vencer el plazo devuelve `Fallida` en vez de `Agotada`.

use std::future::Future;
use std::time::Duration;

use tokio::task::JoinError;

#[derive(Debug)]
pub enum Final<T> {
    /// Terminó a tiempo con este valor.
    Terminada(T),
    /// Se acabó el plazo y la tarea quedó cancelada.
    Agotada,
    /// La tarea entró en pánico.
    Fallida(JoinError),
}

/// Lanza `trabajo` como tarea y espera su resultado como mucho `plazo`.
pub async fn con_plazo<F>(plazo: Duration, trabajo: F) -> Final<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    let mut tarea = tokio::spawn(trabajo);
    tokio::select! {
        // `biased`: si las dos ramas están listas a la vez, gana la tarea.
        biased;
        resultado = &mut tarea => match resultado {
            Ok(valor) => Final::Terminada(valor),
            Err(error) => Final::Fallida(error),
        },
        _ = tokio::time::sleep(plazo) => {
            tarea.abort();
            // `abort` solo pide la cancelación. Esperar el handle es esperar
            // a que se complete; puede que la tarea terminara justo antes.
            match tarea.await {
                Ok(valor) => Final::Terminada(valor),
                                Err(error) => Final::Fallida(error),
            }
        }
    }
}
