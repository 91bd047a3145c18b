//! Ejercicio 1 (solución): un permiso por tarea, pedido antes de lanzarla y
//! soltado cuando la tarea termina su trabajo.

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
        let permiso = permisos.clone().acquire_owned().await.expect("el semáforo no se cierra");
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
