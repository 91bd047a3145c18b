//! Respuesta incorrecta plausible: se lleva todo lo que le cabe. Vacía la cola
//! global de un golpe y deja sin nada a los demás trabajadores.

/// Cuántas tareas toma de la cola global un trabajador con la cola local
/// vacía. `en_global`: tareas en la cola global; `trabajadores`: cuántos hay
/// (al menos 1); `libres`: huecos en su cola local; `capacidad`: capacidad
/// de la cola local. Si la cola global está vacía, 0.
pub fn cuantas_tomar(en_global: usize, trabajadores: usize, libres: usize, capacidad: usize) -> usize {
    if en_global == 0 {
        return 0;
    }
    let _ = (trabajadores, capacidad);
    // Todo lo que quepa en la cola local (y al menos la que se ejecuta).
    en_global.min(libres).max(1)
}
