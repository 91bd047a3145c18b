//! Respuesta incorrecta plausible: toma el candado del ladrón sin soltar el de la víctima.

use std::sync::Arc;

use super::robo::ColaLocal;
use super::tarea::Tarea;

/// Roba la mitad (redondeando hacia arriba) de `victima`, desde su frente.
/// Devuelve la primera tarea robada; el resto, al final de `ladron`.
pub fn roba_mitad(victima: &ColaLocal, ladron: &ColaLocal) -> Option<Arc<Tarea>> {
    // Los dos candados a la vez: si otro trabajador nos roba al mismo
    // tiempo, cada uno espera el candado del otro para siempre.
    let mut cola = victima.lock().unwrap();
    let mut mia = ladron.lock().unwrap();
    let n = cola.len().div_ceil(2);
    let mut botin = cola.drain(..n);
    let primera = botin.next()?;
    mia.extend(botin);
    Some(primera)
}
