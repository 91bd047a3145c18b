//! Respuesta incorrecta plausible: si su propia cola está tomada, no espera: intenta una vez (`try_lock`) y, si no puede, el resto del botín se pierde.

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
    let mut botin = botin.into_iter();
    let primera = botin.next()?;
    // Sin esperar: si otro tiene la cola, las demás robadas se sueltan aquí.
    if let Ok(mut mia) = ladron.try_lock() {
        mia.extend(botin);
    }
    Some(primera)
}
