//! Ejercicio 1: robar la mitad, con candados de verdad.
//!
//! En el capítulo 8 robaste sobre dos `VecDeque` que eran tuyas. Aquí las
//! colas son las de los hilos trabajadores, cada una detrás de su `Mutex`, y
//! mientras robas su dueño sigue trabajando con ella. `roba_mitad`:
//!
//! - se lleva la MITAD de las tareas de `victima`, redondeando hacia ARRIBA
//!   (con una sola tarea, se la lleva);
//! - las toma del FRENTE (las más antiguas, las que llevan más rato
//!   esperando);
//! - devuelve la primera para sondearla ya, y deja las demás, en el mismo
//!   orden, al final de la cola de `ladron`;
//! - NUNCA tiene dos candados tomados a la vez: suelta el de la víctima
//!   antes de tomar el suyo. Si tomaras los dos, dos trabajadores que se
//!   roban el uno al otro a la vez se bloquearían para siempre (cada uno
//!   con su candado, esperando el del otro).
//!
//! Si la víctima no tiene nada, devuelve `None` sin tocar la cola del ladrón.
//!
//! Las pruebas compilan este archivo dos veces: la normal, con los candados
//! de `std`, y otra con los de shuttle (`planificador::modelo`), que recorre
//! uno por uno todos los órdenes posibles entre tu robo y el dueño de la
//! cola. Usa las colas a través de `ColaLocal` (`lock`, `try_lock`) sin
//! nombrar `std::sync::Mutex`: así tu código compila con los dos.

use std::sync::Arc;

use super::robo::ColaLocal;
use super::tarea::Tarea;

// El libro enseña de este ejercicio solo el enunciado: las líneas entre las
// anclas `firma*` (la firma, su documentación y un comentario con lo que hay
// que hacer), sin el cuerpo resuelto.
// ANCHOR: firma
/// Roba la mitad (redondeando hacia arriba) de `victima`, desde su frente.
/// Devuelve la primera tarea robada; el resto, al final de `ladron`.
pub fn roba_mitad(victima: &ColaLocal, ladron: &ColaLocal) -> Option<Arc<Tarea>> {
    // Toma el candado de la víctima, saca `len().div_ceil(2)` del frente, suéltalo y solo
    // entonces toma el tuyo.
    // ANCHOR_END: firma
    let botin: Vec<Arc<Tarea>> = {
        let mut cola = victima.lock().unwrap();
        let n = cola.len().div_ceil(2);
        cola.drain(..n).collect()
    }; // el candado de la víctima se suelta aquí, antes de tomar el nuestro
    let mut botin = botin.into_iter();
    let primera = botin.next()?;
    ladron.lock().unwrap().extend(botin);
    Some(primera)
    // ANCHOR: firma_fin
}
// ANCHOR_END: firma_fin
