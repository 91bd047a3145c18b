//! Respuesta incorrecta plausible: por tandas. Respeta el límite, pero cada
//! tanda espera a su descarga más lenta antes de empezar la siguiente, así
//! que casi siempre hay menos de `limite` en curso y tarda más.

use futures::StreamExt;

/// Descarga todas las `claves` con como mucho `limite` (al menos 1)
/// descargas a la vez. Devuelve `(clave, valor)` en el orden en que acaban.
pub async fn descarga_todas<F>(claves: Vec<u32>, limite: usize, descarga: F) -> Vec<(u32, String)>
where
    F: AsyncFn(u32) -> String,
{
    let descarga = &descarga;
    let mut hechas = Vec::with_capacity(claves.len());
    for tanda in claves.chunks(limite) {
        let mut en_curso: futures::stream::FuturesUnordered<_> =
            tanda.iter().map(|&clave| async move { (clave, descarga(clave).await) }).collect();
        while let Some(hecha) = en_curso.next().await {
            hechas.push(hecha);
        }
    }
    hechas
}
