//! Respuesta incorrecta: lanza por tandas de `limite` y espera a que acabe la
//! tanda entera antes de lanzar la siguiente. Nunca pasa del límite y los
//! resultados salen en orden, pero un trabajo lento deja parados los huecos
//! que ya quedaron libres: tarda más de lo que debe.

use std::future::Future;

/// Ejecuta `trabajo(i)` para cada `i` de `0..n`, cada uno en su tarea, con
/// como mucho `limite` tareas vivas a la vez. Devuelve los resultados en orden.
pub async fn lanza_limitado<F, Fut, T>(n: usize, limite: usize, trabajo: F) -> Vec<T>
where
    F: Fn(usize) -> Fut,
    Fut: Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let mut resultados = Vec::with_capacity(n);
    let mut i = 0;
    while i < n {
        let fin = (i + limite).min(n);
        let tanda: Vec<_> = (i..fin).map(|j| tokio::spawn(trabajo(j))).collect();
        for tarea in tanda {
            resultados.push(tarea.await.expect("una tarea entró en pánico"));
        }
        i = fin;
    }
    resultados
}
