//! Respuesta incorrecta plausible: redondea la mitad hacia abajo; con una sola tarea en la víctima, no roba nada.

use std::sync::Arc;

use super::robo::ColaLocal;
use super::tarea::Tarea;

/// Roba la mitad (redondeando hacia arriba) de `victima`, desde su frente.
/// Devuelve la primera tarea robada; el resto, al final de `ladron`.
pub fn roba_mitad(victima: &ColaLocal, ladron: &ColaLocal) -> Option<Arc<Tarea>> {
    let botin: Vec<Arc<Tarea>> = {
        let mut cola = victima.lock().unwrap();
        let n = cola.len() / 2;
        cola.drain(..n).collect()
    }; // el candado de la víctima se suelta aquí, antes de tomar el nuestro
    let mut botin = botin.into_iter();
    let primera = botin.next()?;
    ladron.lock().unwrap().extend(botin);
    Some(primera)
}
