//! Respuesta incorrecta plausible: roba por detrás: se lleva las tareas más nuevas, no las que llevan más rato esperando.

use std::sync::Arc;

use super::robo::ColaLocal;
use super::tarea::Tarea;

/// Roba la mitad (redondeando hacia arriba) de `victima`, desde su frente.
/// Devuelve la primera tarea robada; el resto, al final de `ladron`.
pub fn roba_mitad(victima: &ColaLocal, ladron: &ColaLocal) -> Option<Arc<Tarea>> {
    let botin: Vec<Arc<Tarea>> = {
        let mut cola = victima.lock().unwrap();
        let n = cola.len().div_ceil(2);
        let desde = cola.len() - n;
        cola.drain(desde..).collect()
    }; // el candado de la víctima se suelta aquí, antes de tomar el nuestro
    let mut botin = botin.into_iter();
    let primera = botin.next()?;
    ladron.lock().unwrap().extend(botin);
    Some(primera)
}
