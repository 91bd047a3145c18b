//! Respuesta incorrecta plausible: cuenta las vueltas con `+= 1`: tras 2³² vueltas la suma se desborda y el trabajador muere (en modo depuración, con un pánico).

use std::sync::Arc;

use super::robo::{Compartido, INTERVALO_GLOBAL, Trabajador};
use super::tarea::Tarea;

impl Trabajador {
    /// La tarea que toca sondear en esta vuelta, o `None` si no hay ninguna.
    pub fn busca_tarea(&mut self, compartido: &Compartido) -> Option<Arc<Tarea>> {
        self.tick += 1;
        if self.tick % INTERVALO_GLOBAL == 0 {
            if let Some(tarea) = compartido.saca_del_inyector() {
                return Some(tarea);
            }
        }
        self.siguiente_local(compartido)
            .or_else(|| compartido.toma_lote_del_inyector(self.indice))
            .or_else(|| self.roba(compartido))
    }
}
