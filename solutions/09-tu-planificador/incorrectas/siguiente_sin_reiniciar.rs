//! Respuesta incorrecta plausible: nunca pone a cero la cuenta: tras el primer tope, la ranura queda apagada para siempre.

use std::sync::Arc;

use super::robo::{Compartido, MAX_LIFO_SEGUIDAS, Trabajador};
use super::tarea::Tarea;

impl Trabajador {
    /// Mete `tarea` en la ranura LIFO; la que estaba pasa a la cola local.
    pub fn pon_en_ranura(&mut self, compartido: &Compartido, tarea: Arc<Tarea>) {
        if let Some(anterior) = self.ranura_lifo.replace(tarea) {
            compartido.empuja_local(self.indice, anterior);
        }
    }

    /// La ranura (con su tope) y, si no, la cola local.
    pub fn siguiente_local(&mut self, compartido: &Compartido) -> Option<Arc<Tarea>> {
        if let Some(tarea) = self.ranura_lifo.take() {
            if self.lifo_seguidas < MAX_LIFO_SEGUIDAS {
                self.lifo_seguidas += 1;
                return Some(tarea);
            }
            // Tope alcanzado: al final de la cola, detrás de las que esperan.
            compartido.empuja_local(self.indice, tarea);
        }
        compartido.saca_local(self.indice)
    }
}
