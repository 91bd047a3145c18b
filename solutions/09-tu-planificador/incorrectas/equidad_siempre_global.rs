//! Respuesta incorrecta plausible: mira la cola global en todas las vueltas, con su candado compartido por todos.

use std::sync::Arc;

use super::robo::{Compartido, INTERVALO_GLOBAL, Trabajador};
use super::tarea::Tarea;

impl Trabajador {
    /// La tarea que toca sondear en esta vuelta, o `None` si no hay ninguna.
    pub fn busca_tarea(&mut self, compartido: &Compartido) -> Option<Arc<Tarea>> {
        self.tick = self.tick.wrapping_add(1);
        let _ = INTERVALO_GLOBAL;
        {
            if let Some(tarea) = compartido.saca_del_inyector() {
                return Some(tarea);
            }
        }
        self.siguiente_local(compartido)
            .or_else(|| compartido.toma_lote_del_inyector(self.indice))
            .or_else(|| self.roba(compartido))
    }
}
