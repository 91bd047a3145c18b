//! Respuesta incorrecta plausible: recoge con `try_join_next_with_id`, que
//! no espera, y entre intento e intento duerme 1 ms. Clasifica bien y
//! vuelve a tiempo, pero la tarea se despierta cada milisegundo aunque no
//! haya acabado nadie: es esperar sondeando.

use std::any::Any;
use std::collections::HashMap;
use std::time::Duration;

use tokio::task::{Id, JoinError, JoinSet};
use tokio::time::Instant;

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
    let fin = Instant::now() + plazo;
    let mut desenlaces = HashMap::new();
    loop {
        while let Some(resultado) = tareas.try_join_next_with_id() {
            anota(&mut desenlaces, resultado);
        }
        if tareas.is_empty() {
            break;
        }
        if Instant::now() >= fin {
            tareas.abort_all();
            while let Some(resultado) = tareas.join_next_with_id().await {
                anota(&mut desenlaces, resultado);
            }
            break;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
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
