//! Respuesta incorrecta plausible: lanza todas las descargas a la vez con
//! `FuturesUnordered` (el orden según acaban es el bueno) y se olvida del
//! límite: con muchas claves, muchas descargas a la vez.

use futures::StreamExt;

/// Descarga todas las `claves` con como mucho `limite` (al menos 1)
/// descargas a la vez. Devuelve `(clave, valor)` en el orden en que acaban.
pub async fn descarga_todas<F>(claves: Vec<u32>, limite: usize, descarga: F) -> Vec<(u32, String)>
where
    F: AsyncFn(u32) -> String,
{
    let _ = limite;
    let descarga = &descarga;
    claves
        .into_iter()
        .map(|clave| async move { (clave, descarga(clave).await) })
        .collect::<futures::stream::FuturesUnordered<_>>()
        .collect()
        .await
}
