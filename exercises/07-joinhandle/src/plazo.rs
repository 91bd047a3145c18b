//! Ejercicio 1: un plazo que de verdad cancela.
//!
//! `con_plazo` lanza `trabajo` como tarea y espera su resultado como mucho
//! durante `plazo`. Devuelve:
//!
//! - `Final::Terminada(v)` si la tarea terminó a tiempo y dio `v`;
//! - `Final::Fallida(error)` si la tarea entró en pánico;
//! - `Final::Agotada` si el plazo venció antes. En ese caso la tarea no puede
//!   seguir corriendo: cancélala, y no vuelvas hasta que la cancelación se
//!   haya completado (hasta que su *future* se haya soltado). Si al
//!   cancelarla resulta que terminó justo antes, o que estaba a mitad de un
//!   sondeo (con varios hilos) y ese sondeo la terminó, devuelve su valor.

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
    let _ = (plazo, trabajo);
    todo!("lanza la tarea y compite con un sleep usando tokio::select!")
}
