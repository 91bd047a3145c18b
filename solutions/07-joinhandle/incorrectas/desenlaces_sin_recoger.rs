//! Respuesta incorrecta plausible: al vencer el plazo deja de esperar y
//! vuelve, confiando en que el `JoinSet` cancele lo que quede al soltarse.
//! Lo cancela, sí, pero esas tareas no aparecen en el resultado, y cuando
//! `clasifica` vuelve todavía no se han soltado.

use std::any::Any;
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
    while let Ok(Some(resultado)) = timeout_at(fin, tareas.join_next_with_id()).await {
        match resultado {
            Ok((id, valor)) => {
                desenlaces.insert(id, Desenlace::Valor(valor));
            }
            Err(error) => {
                let id = error.id();
                let desenlace = match error.try_into_panic() {
                    Ok(carga) => Desenlace::Panico(mensaje(carga)),
                    Err(_) => Desenlace::Cancelada,
                };
                desenlaces.insert(id, desenlace);
            }
        }
    }
    desenlaces
}

fn mensaje(carga: Box<dyn Any + Send>) -> String {
    if let Some(texto) = carga.downcast_ref::<&'static str>() {
        texto.to_string()
    } else if let Some(texto) = carga.downcast_ref::<String>() {
        texto.clone()
    } else {
        SIN_MENSAJE.to_string()
    }
}
