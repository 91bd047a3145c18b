//! Respuesta incorrecta plausible: la ranura LIFO sin tope: dos tareas que se despiertan la una a la otra se la quedan para siempre.

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
        // Sin tope: la ranura siempre primero.
        if let Some(tarea) = self.ranura_lifo.take() {
            self.lifo_seguidas = self.lifo_seguidas.saturating_add(1).min(MAX_LIFO_SEGUIDAS);
            return Some(tarea);
        }
        self.lifo_seguidas = 0;
        compartido.saca_local(self.indice)
    }
}
