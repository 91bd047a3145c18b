//! Respuesta incorrecta: `try_recv` en lugar de `recv().await`, y salir del
//! bucle con cualquier error. «Vacía» no es «cerrada»: el despachador se va
//! la primera vez que la cola está vacía, y lo que llega después no lo
//! atiende nadie.

use std::future::Future;
use std::sync::Arc;

use tokio::sync::{Semaphore, mpsc};
use tokio::task::{JoinHandle, JoinSet};

pub fn despacha<T, F, Fut>(capacidad: usize, simultaneos: usize, atiende: F) -> (mpsc::Sender<T>, JoinHandle<usize>)
where
    T: Send + 'static,
    F: Fn(T) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let (tx, mut rx) = mpsc::channel(capacidad);
    let despachador = tokio::spawn(async move {
        let permisos = Arc::new(Semaphore::new(simultaneos));
        let mut en_marcha = JoinSet::new();
        loop {
            let permiso = permisos.clone().acquire_owned().await.expect("el semáforo no se cierra");
            let Ok(trabajo) = rx.try_recv() else { break };
            let futuro = atiende(trabajo);
            en_marcha.spawn(async move {
                futuro.await;
                drop(permiso);
            });
        }
        let mut atendidos = 0;
        while let Some(hecho) = en_marcha.join_next().await {
            hecho.expect("un trabajo entró en pánico");
            atendidos += 1;
        }
        atendidos
    });
    (tx, despachador)
}
