//! Respuesta incorrecta plausible: solo reconoce los pánicos con un texto
//! fijo (`&'static str`). `panic!("pedido {n}")` lleva un `String`, y aquí
//! sale como si no tuviera mensaje.

use std::collections::HashMap;
use std::time::Duration;

use tokio::task::{Id, JoinSet};
use tokio::time::{Instant, timeout_at};

pub const SIN_MENSAJE: &str = "(pánico sin mensaje de texto)";

#[derive(Debug, PartialEq, Eq)]
pub enum Desenlace<T> {
    Valor(T),
    Panico(String),
    Cancelada,
}

pub async fn clasifica<T: 'static>(mut tareas: JoinSet<T>, plazo: Duration) -> HashMap<Id, Desenlace<T>> {
    let fin = Instant::now() + plazo;
    let mut desenlaces = HashMap::new();
    let mut vencido = false;
    loop {
        let siguiente = if vencido {
            tareas.join_next_with_id().await
        } else {
            match timeout_at(fin, tareas.join_next_with_id()).await {
                Ok(siguiente) => siguiente,
                Err(_) => {
                    tareas.abort_all();
                    vencido = true;
                    continue;
                }
            }
        };
        let Some(resultado) = siguiente else { break };
        match resultado {
            Ok((id, valor)) => {
                desenlaces.insert(id, Desenlace::Valor(valor));
            }
            Err(error) if error.is_panic() => {
                let id = error.id();
                let carga = error.into_panic();
                let texto = carga.downcast_ref::<&str>().map_or(SIN_MENSAJE, |t| *t);
                desenlaces.insert(id, Desenlace::Panico(texto.to_string()));
            }
            Err(error) => {
                desenlaces.insert(error.id(), Desenlace::Cancelada);
            }
        }
    }
    desenlaces
}
