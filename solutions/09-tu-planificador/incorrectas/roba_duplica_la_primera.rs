//! Respuesta incorrecta plausible: devuelve la primera robada pero la deja también en la cola del ladrón: esa tarea se sondeará dos veces.

use std::sync::Arc;

use super::robo::ColaLocal;
use super::tarea::Tarea;

/// Roba la mitad (redondeando hacia arriba) de `victima`, desde su frente.
/// Devuelve la primera tarea robada; el resto, al final de `ladron`.
pub fn roba_mitad(victima: &ColaLocal, ladron: &ColaLocal) -> Option<Arc<Tarea>> {
    let botin: Vec<Arc<Tarea>> = {
        let mut cola = victima.lock().unwrap();
        let n = cola.len().div_ceil(2);
        cola.drain(..n).collect()
    };
    let primera = Arc::clone(botin.first()?);
    // Todo el botín a la cola, también la que se devuelve para sondearla ya.
    ladron.lock().unwrap().extend(botin);
    Some(primera)
}
