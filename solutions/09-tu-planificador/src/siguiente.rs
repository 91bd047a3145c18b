//! Ejercicio 2: la ranura LIFO de un trabajador de verdad.
//!
//! Cuando una tarea despierta (o lanza) a otra, la despertada suele tener
//! lo que necesita aún en la caché: conviene sondearla enseguida. Para eso
//! está la ranura LIFO del trabajador. Dos métodos:
//!
//! `pon_en_ranura(compartido, tarea)`: la tarea entra en la ranura. Si la
//! ranura ya tenía una, esa NO se pierde: pasa al final de la cola local del
//! trabajador, con `compartido.empuja_local(self.indice, ...)` (que ya sabe
//! desbordar hacia la cola global y avisar a un trabajador dormido).
//!
//! `siguiente_local(compartido)`: la siguiente tarea de este trabajador,
//! sin mirar la cola global ni robar:
//!
//! 1. Si hay una tarea en la ranura y han salido de ella menos de
//!    `MAX_LIFO_SEGUIDAS` tareas seguidas, sale esa (y suma una a
//!    `lifo_seguidas`).
//! 2. Si hay una tarea en la ranura pero ya se llegó al tope, esa tarea pasa
//!    al FINAL de la cola local: así dos tareas que se despiertan la una a la
//!    otra sin parar no dejan sin turno a las de la cola.
//! 3. Si no salió de la ranura, sale la primera de la cola local
//!    (`compartido.saca_local(self.indice)`), y `lifo_seguidas` vuelve a 0
//!    (aunque la cola esté vacía).

use std::sync::Arc;

use super::robo::{Compartido, MAX_LIFO_SEGUIDAS, Trabajador};
use super::tarea::Tarea;

// El libro enseña de este ejercicio solo el enunciado: las líneas entre las
// anclas `firma*` (la firma, su documentación y un comentario con lo que hay
// que hacer), sin el cuerpo resuelto.
// ANCHOR: firma
impl Trabajador {
    /// Mete `tarea` en la ranura LIFO; la que estaba pasa a la cola local.
    pub fn pon_en_ranura(&mut self, compartido: &Compartido, tarea: Arc<Tarea>) {
        // `Option::replace` te da la que estaba en la ranura: llévala a la cola local.
        // ANCHOR_END: firma
        if let Some(anterior) = self.ranura_lifo.replace(tarea) {
            compartido.empuja_local(self.indice, anterior);
        }
        // ANCHOR: firma_2
    }

    /// La ranura (con su tope) y, si no, la cola local.
    pub fn siguiente_local(&mut self, compartido: &Compartido) -> Option<Arc<Tarea>> {
        // La ranura si `lifo_seguidas < MAX_LIFO_SEGUIDAS`; si no, llévala al final de la cola
        // y saca el frente.
        // ANCHOR_END: firma_2
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
        // ANCHOR: firma_fin
    }
}
// ANCHOR_END: firma_fin
