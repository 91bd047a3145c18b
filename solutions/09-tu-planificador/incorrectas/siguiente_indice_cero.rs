//! Respuesta incorrecta plausible: usa siempre la cola del trabajador 0 en vez de la de `self.indice`.

use std::sync::Arc;

use super::robo::{Compartido, MAX_LIFO_SEGUIDAS, Trabajador};
use super::tarea::Tarea;

impl Trabajador {
    /// Mete `tarea` en la ranura LIFO; la que estaba pasa a la cola local.
    pub fn pon_en_ranura(&mut self, compartido: &Compartido, tarea: Arc<Tarea>) {
        if let Some(anterior) = self.ranura_lifo.replace(tarea) {
            compartido.empuja_local(0, anterior);
        }
    }

    /// La ranura (con su tope) y, si no, la cola local.
    pub fn siguiente_local(&mut self, compartido: &Compartido) -> Option<Arc<Tarea>> {
        if let Some(tarea) = self.ranura_lifo.take() {
            if self.lifo_seguidas < MAX_LIFO_SEGUIDAS {
                self.lifo_seguidas += 1;
                return Some(tarea);
            }
            compartido.empuja_local(0, tarea);
        }
        self.lifo_seguidas = 0;
        compartido.saca_local(0)
    }
}
