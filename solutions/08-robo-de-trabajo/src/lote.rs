//! Ejercicio 2: cuántas tareas toma un trabajador de la cola global.
//!
//! Cuando la cola local de un trabajador se queda vacía y en la cola global
//! hay tareas, Tokio no toma una sola (volvería enseguida a por otra, y cada
//! visita a la cola global toma un candado) ni todas (dejaría sin nada a los
//! demás trabajadores). Toma un lote:
//!
//! - su parte: `en_global / trabajadores + 1`;
//! - pero no más de lo que le cabe en la cola local (`libres`) ni de media
//!   cola (`capacidad / 2`);
//! - y al menos una, porque la primera no va a la cola local: el trabajador
//!   la ejecuta enseguida;
//! - y, claro, no más de las que hay.
//!
//! Es `worker.rs::next_task` en Tokio 1.54.1 (la entrada «Tokio: tomar de la
//! cola global» de las referencias del libro).

/// Cuántas tareas toma de la cola global un trabajador con la cola local
/// vacía. `en_global`: tareas en la cola global; `trabajadores`: cuántos hay
/// (al menos 1); `libres`: huecos en su cola local; `capacidad`: capacidad
/// de la cola local. Si la cola global está vacía, 0.
pub fn cuantas_tomar(en_global: usize, trabajadores: usize, libres: usize, capacidad: usize) -> usize {
    if en_global == 0 {
        return 0;
    }
    let su_parte = en_global / trabajadores + 1;
    let tope = libres.min(capacidad / 2);
    // Al menos una (la que se ejecuta enseguida), y no más de las que hay.
    su_parte.min(tope).max(1).min(en_global)
}
