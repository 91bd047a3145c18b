//! Ejercicio 3 (solución): un `Stream` de claves convertido en un `Stream`
//! de *futures* con `map`, y `buffer_unordered(limite)`, que mantiene como
//! mucho `limite` en curso, empieza otro en cuanto uno acaba y entrega cada
//! resultado en cuanto está.

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
        .buffer_unordered(limite)
        .collect()
        .await
}
