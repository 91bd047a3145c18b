//! Respuesta incorrecta plausible: `buffered` en vez de `buffer_unordered`.
//! Entrega en el orden de las claves, y una descarga lenta al principio
//! ocupa su sitio hasta que acaba: las que terminaron detrás de ella también
//! cuentan para el límite, y no empiezan otras.

use futures::StreamExt;

/// Descarga todas las `claves` con como mucho `limite` (al menos 1)
/// descargas a la vez. Devuelve `(clave, valor)` en el orden en que acaban.
pub async fn descarga_todas<F>(claves: Vec<u32>, limite: usize, descarga: F) -> Vec<(u32, String)>
where
    F: AsyncFn(u32) -> String,
{
    let descarga = &descarga;
    futures::stream::iter(claves)
        .map(|clave| async move { (clave, descarga(clave).await) })
        .buffered(limite)
        .collect()
        .await
}
