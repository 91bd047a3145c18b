//! Respuesta incorrecta plausible: en la vuelta de la cola global devuelve lo que haya en ella, también `None`: con la cola global vacía, esa vuelta se pierde aunque haya trabajo propio.

use std::sync::Arc;

use super::robo::{Compartido, INTERVALO_GLOBAL, Trabajador};
use super::tarea::Tarea;

impl Trabajador {
    /// La tarea que toca sondear en esta vuelta, o `None` si no hay ninguna.
    pub fn busca_tarea(&mut self, compartido: &Compartido) -> Option<Arc<Tarea>> {
        self.tick = self.tick.wrapping_add(1);
        if self.tick % INTERVALO_GLOBAL == 0 {
            return compartido.saca_del_inyector();
        }
        self.siguiente_local(compartido)
            .or_else(|| compartido.toma_lote_del_inyector(self.indice))
            .or_else(|| self.roba(compartido))
    }
}
