//! Respuesta incorrecta plausible: pon_en_ranura pisa la tarea que estaba en la ranura.

use std::sync::Arc;

use super::robo::{Compartido, MAX_LIFO_SEGUIDAS, Trabajador};
use super::tarea::Tarea;

impl Trabajador {
    /// Mete `tarea` en la ranura LIFO; la que estaba pasa a la cola local.
    pub fn pon_en_ranura(&mut self, compartido: &Compartido, tarea: Arc<Tarea>) {
        let _ = compartido;
        self.ranura_lifo = Some(tarea); // la que estaba se suelta: tarea perdida
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
        self.lifo_seguidas = 0;
        compartido.saca_local(self.indice)
    }
}
