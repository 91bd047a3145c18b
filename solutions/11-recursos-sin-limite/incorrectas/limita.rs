//! Respuesta incorrecta: `let _ = ...` no guarda el permiso. El patrón `_`
//! no enlaza el valor, así que el permiso se suelta en esa misma línea y el
//! semáforo no limita nada.

use std::future::Future;
use std::sync::Arc;

use tokio::sync::Semaphore;

pub async fn lanza_limitado<F, Fut, T>(n: usize, limite: usize, trabajo: F) -> Vec<T>
where
    F: Fn(usize) -> Fut,
    Fut: Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let permisos = Arc::new(Semaphore::new(limite));
    let mut tareas = Vec::with_capacity(n);
    for i in 0..n {
        let _ = permisos.clone().acquire_owned().await.expect("el semáforo no se cierra");
        tareas.push(tokio::spawn(trabajo(i)));
    }
    let mut resultados = Vec::with_capacity(n);
    for tarea in tareas {
        resultados.push(tarea.await.expect("una tarea entró en pánico"));
    }
    resultados
}
