//! Ejercicio 3: qué mira el trabajador en cada vuelta.
//!
//! `busca_tarea` es el primer paso de cada vuelta (*tick*) del bucle del
//! trabajador. En orden:
//!
//! 1. Suma una vuelta a `self.tick` (con `wrapping_add`: la primera
//!    llamada es la vuelta 1).
//! 2. Si `self.tick % INTERVALO_GLOBAL == 0`, mira PRIMERO la cola global:
//!    si `compartido.saca_del_inyector()` da una tarea, esa es la elegida.
//!    Sin este paso, un trabajador con trabajo local inagotable dejaría
//!    para siempre sin turno a las tareas de la cola global.
//! 3. Si no, lo suyo: `self.siguiente_local(compartido)` (ejercicio 2).
//! 4. Si no tiene nada suyo, un lote de la cola global:
//!    `compartido.toma_lote_del_inyector(self.indice)`.
//! 5. Si la cola global también está vacía, roba: `self.roba(compartido)`
//!    (que usa tu `roba_mitad` del ejercicio 1).
//! 6. Si nada de eso da una tarea, `None`: el bucle se irá a dormir.
//!
//! Este ejercicio se apoya en los dos anteriores: sus pruebas llaman a tu
//! `siguiente_local` (ejercicio 2) y, al robar, a tu `roba_mitad`
//! (ejercicio 1). Resuélvelos antes; si no, sus `todo!()` harán fallar estas
//! pruebas.

use std::sync::Arc;

use super::robo::{Compartido, INTERVALO_GLOBAL, Trabajador};
use super::tarea::Tarea;

// El libro enseña de este ejercicio solo el enunciado: las líneas entre las
// anclas `firma*` (la firma, su documentación y un comentario con lo que hay
// que hacer), sin el cuerpo resuelto.
// ANCHOR: firma
impl Trabajador {
    /// La tarea que toca sondear en esta vuelta, o `None` si no hay ninguna.
    pub fn busca_tarea(&mut self, compartido: &Compartido) -> Option<Arc<Tarea>> {
        // Suma la vuelta; si toca, la cola global; luego lo tuyo, un lote de la global y, al final, robar.
        // ANCHOR_END: firma
        self.tick = self.tick.wrapping_add(1);
        if self.tick.is_multiple_of(INTERVALO_GLOBAL)
            && let Some(tarea) = compartido.saca_del_inyector()
        {
            return Some(tarea);
        }
        self.siguiente_local(compartido)
            .or_else(|| compartido.toma_lote_del_inyector(self.indice))
            .or_else(|| self.roba(compartido))
        // ANCHOR: firma_fin
    }
}
// ANCHOR_END: firma_fin
