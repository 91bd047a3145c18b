//! Respuesta incorrecta plausible: usa 128, la media cola de Tokio, en vez de la
//! mitad de la capacidad que le dan: solo acierta con colas de 256.

/// Cuántas tareas toma de la cola global un trabajador con la cola local
/// vacía. `en_global`: tareas en la cola global; `trabajadores`: cuántos hay
/// (al menos 1); `libres`: huecos en su cola local; `capacidad`: capacidad
/// de la cola local. Si la cola global está vacía, 0.
pub fn cuantas_tomar(en_global: usize, trabajadores: usize, libres: usize, capacidad: usize) -> usize {
    if en_global == 0 {
        return 0;
    }
    let su_parte = en_global / trabajadores + 1;
    let _ = capacidad;
    let tope = libres.min(128);
    // Al menos una (la que se ejecuta enseguida), y no más de las que hay.
    su_parte.min(tope).max(1).min(en_global)
}
