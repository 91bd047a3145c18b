//! Respuesta incorrecta plausible: calcula su parte con decimales y redondea al
//! entero más cercano: con cocientes no exactos (7 / 2 = 3,5) toma una de más.

/// Cuántas tareas toma de la cola global un trabajador con la cola local
/// vacía. `en_global`: tareas en la cola global; `trabajadores`: cuántos hay
/// (al menos 1); `libres`: huecos en su cola local; `capacidad`: capacidad
/// de la cola local. Si la cola global está vacía, 0.
pub fn cuantas_tomar(en_global: usize, trabajadores: usize, libres: usize, capacidad: usize) -> usize {
    if en_global == 0 {
        return 0;
    }
    let su_parte = (en_global as f64 / trabajadores as f64).round() as usize + 1;
    let tope = libres.min(capacidad / 2);
    // Al menos una (la que se ejecuta enseguida), y no más de las que hay.
    su_parte.min(tope).max(1).min(en_global)
}
