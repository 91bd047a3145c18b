//! Respuesta incorrecta: el permiso entra en la tarea, pero se suelta antes
//! del trabajo, no después. Parece limitado y no lo está.

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
        let permiso = permisos.clone().acquire_owned().await.expect("el semáforo no se cierra");
        let futuro = trabajo(i);
        tareas.push(tokio::spawn(async move {
            drop(permiso);
            futuro.await
        }));
    }
    let mut resultados = Vec::with_capacity(n);
    for tarea in tareas {
        resultados.push(tarea.await.expect("una tarea entró en pánico"));
    }
    resultados
}
