//! Respuesta incorrecta plausible: reparte la cola global a partes iguales,
//! sin el «+ 1» ni el mínimo de una. Con menos tareas que trabajadores, toma
//! cero, y la tarea se queda sin nadie que la ejecute.

/// Cuántas tareas toma de la cola global un trabajador con la cola local
/// vacía. `en_global`: tareas en la cola global; `trabajadores`: cuántos hay
/// (al menos 1); `libres`: huecos en su cola local; `capacidad`: capacidad
/// de la cola local. Si la cola global está vacía, 0.
pub fn cuantas_tomar(en_global: usize, trabajadores: usize, libres: usize, capacidad: usize) -> usize {
    if en_global == 0 {
        return 0;
    }
    // A partes iguales, sin pasarse de lo que cabe.
    let tope = libres.min(capacidad / 2);
    (en_global / trabajadores).min(tope)
}
