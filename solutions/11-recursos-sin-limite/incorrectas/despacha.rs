//! Respuesta incorrecta: cada trabajo va a una tarea desligada
//! (`tokio::spawn` sin guardar el `JoinHandle`). Al cerrarse la cola, el
//! despachador devuelve la cuenta de los que lanzó sin esperar a que
//! terminen: quien apaga el servicio cree que todo está hecho y no lo está.

use std::future::Future;
use std::sync::Arc;

use tokio::sync::{Semaphore, mpsc};
use tokio::task::JoinHandle;

pub fn despacha<T, F, Fut>(capacidad: usize, simultaneos: usize, atiende: F) -> (mpsc::Sender<T>, JoinHandle<usize>)
where
    T: Send + 'static,
    F: Fn(T) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let (tx, mut rx) = mpsc::channel(capacidad);
    let despachador = tokio::spawn(async move {
        let permisos = Arc::new(Semaphore::new(simultaneos));
        let mut lanzados = 0;
        loop {
            let permiso = permisos.clone().acquire_owned().await.expect("el semáforo no se cierra");
            let Some(trabajo) = rx.recv().await else { break };
            let futuro = atiende(trabajo);
            tokio::spawn(async move {
                futuro.await;
                drop(permiso);
            });
            lanzados += 1;
        }
        lanzados
    });
    (tx, despachador)
}
