//! Respuesta incorrecta plausible: pone un `timeout(plazo, ...)` a cada
//! espera de `join_next_with_id`. El plazo vuelve a empezar cada vez que
//! acaba una tarea: si acaban a los 40 y a los 80 ms, con un plazo de
//! 50 ms espera hasta los 130 y da por buena la de 80.

use std::any::Any;
use std::collections::HashMap;
use std::time::Duration;

use tokio::task::{Id, JoinError, JoinSet};
use tokio::time::timeout;

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

pub async fn clasifica<T: 'static>(mut tareas: JoinSet<T>, plazo: Duration) -> HashMap<Id, Desenlace<T>> {
    let mut desenlaces = HashMap::new();
    while let Ok(Some(resultado)) = timeout(plazo, tareas.join_next_with_id()).await {
        anota(&mut desenlaces, resultado);
    }
    tareas.abort_all();
    while let Some(resultado) = tareas.join_next_with_id().await {
        anota(&mut desenlaces, resultado);
    }
    desenlaces
}

fn anota<T>(desenlaces: &mut HashMap<Id, Desenlace<T>>, resultado: Result<(Id, T), JoinError>) {
    let (id, desenlace) = match resultado {
        Ok((id, valor)) => (id, Desenlace::Valor(valor)),
        Err(error) => {
            let id = error.id();
            match error.try_into_panic() {
                Ok(carga) => (id, Desenlace::Panico(mensaje(carga))),
                Err(_cancelada) => (id, Desenlace::Cancelada),
            }
        }
    };
    desenlaces.insert(id, desenlace);
}

/// `panic!("fijo")` lleva un `&'static str`; `panic!("{x}")`, un `String`.
fn mensaje(carga: Box<dyn Any + Send>) -> String {
    if let Some(texto) = carga.downcast_ref::<&'static str>() {
        texto.to_string()
    } else if let Some(texto) = carga.downcast_ref::<String>() {
        texto.clone()
    } else {
        SIN_MENSAJE.to_string()
    }
}
