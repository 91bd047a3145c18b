//! Ejercicio 3: cómo terminó cada tarea.
//!
//! `clasifica` recibe un grupo de tareas ya lanzadas y espera a que acaben,
//! como mucho durante `plazo`, contado desde que la llamas. Las que sigan en
//! marcha cuando venza el plazo se cancelan. Devuelve, para cada tarea del
//! grupo (por su `Id`), cómo terminó:
//!
//! - `Desenlace::Valor(v)` si terminó normalmente;
//! - `Desenlace::Panico(mensaje)` si entró en pánico, con el texto del
//!   pánico, o [`SIN_MENSAJE`] si lo que llevaba el pánico no era texto;
//! - `Desenlace::Cancelada` si alguien la canceló antes o la cancelaste tú
//!   al vencer el plazo. Ojo: cancelar no interrumpe un sondeo en marcha;
//!   una tarea que estaba acabando puede terminar bien después de cancelarla,
//!   y entonces su desenlace es su valor.
//!
//! Si todas acaban antes del plazo, no esperes al plazo. Y cuando vuelvas,
//! que no quede ninguna tarea del grupo viva.

use std::collections::HashMap;
use std::time::Duration;

use tokio::task::{Id, JoinSet};

/// El mensaje para un pánico que no llevaba texto (`std::panic::panic_any(42)`).
pub const SIN_MENSAJE: &str = "(pánico sin mensaje de texto)";

/// Cómo terminó una tarea.
#[derive(Debug, PartialEq, Eq)]
pub enum Desenlace<T> {
    /// Terminó normalmente con este valor.
    Valor(T),
    /// Entró en pánico con este mensaje.
    Panico(String),
    /// Fue cancelada.
    Cancelada,
}

/// Espera las tareas de `tareas` como mucho `plazo`, cancela las que queden
/// y devuelve cómo terminó cada una.
pub async fn clasifica<T: 'static>(tareas: JoinSet<T>, plazo: Duration) -> HashMap<Id, Desenlace<T>> {
    let _ = (tareas, plazo);
    todo!("join_next_with_id da el Id de cada tarea; un JoinError también lo tiene (error.id())")
}
