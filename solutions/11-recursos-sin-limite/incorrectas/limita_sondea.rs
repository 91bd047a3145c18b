//! Respuesta incorrecta: pide el permiso con `try_acquire_owned` en un bucle
//! con `yield_now`. Respeta el límite, pero quien lanza no duerme mientras
//! espera: se despierta a sí mismo una y otra vez, gasta CPU y, con el reloj
//! de Tokio en pausa, no deja que el tiempo avance.

use std::future::Future;
use std::sync::Arc;

use tokio::sync::Semaphore;

/// Ejecuta `trabajo(i)` para cada `i` de `0..n`, cada uno en su tarea, con
/// como mucho `limite` tareas vivas a la vez. Devuelve los resultados en orden.
pub async fn lanza_limitado<F, Fut, T>(n: usize, limite: usize, trabajo: F) -> Vec<T>
where
    F: Fn(usize) -> Fut,
    Fut: Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let permisos = Arc::new(Semaphore::new(limite));
    let mut tareas = Vec::with_capacity(n);
    for i in 0..n {
        // Sin permiso no hay tarea: aquí espera quien lanza, no una tarea
        // más en memoria.
        let permiso = loop {
            match permisos.clone().try_acquire_owned() {
                Ok(permiso) => break permiso,
                Err(_) => tokio::task::yield_now().await,
            }
        };
        let futuro = trabajo(i);
        tareas.push(tokio::spawn(async move {
            let resultado = futuro.await;
            drop(permiso); // el permiso vuelve cuando el trabajo ha terminado
            resultado
        }));
    }
    let mut resultados = Vec::with_capacity(n);
    for tarea in tareas {
        resultados.push(tarea.await.expect("una tarea entró en pánico"));
    }
    resultados
}
