//! Respuesta incorrecta: el permiso se pide dentro de la tarea. Limita
//! cuántos trabajos corren a la vez, pero las `n` tareas se lanzan de golpe y
//! todas ocupan memoria mientras esperan su permiso.

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
        let permisos = permisos.clone();
        let futuro = trabajo(i);
        tareas.push(tokio::spawn(async move {
            let _permiso = permisos.acquire_owned().await.expect("el semáforo no se cierra");
            futuro.await
        }));
    }
    let mut resultados = Vec::with_capacity(n);
    for tarea in tareas {
        resultados.push(tarea.await.expect("una tarea entró en pánico"));
    }
    resultados
}
