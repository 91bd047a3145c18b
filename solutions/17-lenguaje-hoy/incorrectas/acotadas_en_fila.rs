//! Respuesta incorrecta plausible: de una en una. Nunca pasa del límite,
//! pero tampoco lo aprovecha: tarda la suma de todas las descargas.

/// Descarga todas las `claves` con como mucho `limite` (al menos 1)
/// descargas a la vez. Devuelve `(clave, valor)` en el orden en que acaban.
pub async fn descarga_todas<F>(claves: Vec<u32>, limite: usize, descarga: F) -> Vec<(u32, String)>
where
    F: AsyncFn(u32) -> String,
{
    let _ = limite;
    let mut hechas = Vec::with_capacity(claves.len());
    for clave in claves {
        hechas.push((clave, descarga(clave).await));
    }
    hechas
}
