//! Ejercicio 1 (solución): `select!` entre el `JoinHandle` y un `sleep`; si
//! gana el `sleep`, `abort` y después `.await` sobre el mismo handle, que
//! vuelve cuando la cancelación se ha completado.

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
                Err(error) if error.is_cancelled() => Final::Agotada,
                Err(error) => Final::Fallida(error),
            }
        }
    }
}
