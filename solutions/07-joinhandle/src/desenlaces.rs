//! Ejercicio 3 (solución): dos fases. Hasta el plazo, `join_next_with_id`
//! con `timeout_at`; después, `abort_all` y recoger también lo cancelado,
//! que así queda soltado del todo antes de volver.

use std::any::Any;
use std::collections::HashMap;
use std::time::Duration;

use tokio::task::{Id, JoinError, JoinSet};
use tokio::time::{Instant, timeout_at};

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
pub async fn clasifica<T: 'static>(mut tareas: JoinSet<T>, plazo: Duration) -> HashMap<Id, Desenlace<T>> {
    let fin = Instant::now() + plazo;
    let mut desenlaces = HashMap::new();
    // Fase 1: hasta el plazo. Acaba si el grupo se vacía (Ok(None)) o si
    // vence el plazo (Err). join_next_with_id es seguro de cancelar: si
    // vence el plazo, no se pierde ninguna tarea.
    while let Ok(Some(resultado)) = timeout_at(fin, tareas.join_next_with_id()).await {
        anota(&mut desenlaces, resultado);
    }
    // Fase 2: cancela lo que quede y recoge también esos desenlaces.
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
