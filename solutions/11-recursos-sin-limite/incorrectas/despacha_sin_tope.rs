//! Respuesta incorrecta: una tarea por trabajo en cuanto llega, sin permiso.
//! La cola acotada no sirve de nada: el despachador la vacía enseguida y los
//! trabajos se acumulan como tareas, sin límite.

use std::future::Future;

use tokio::sync::mpsc;
use tokio::task::{JoinHandle, JoinSet};

pub fn despacha<T, F, Fut>(capacidad: usize, simultaneos: usize, atiende: F) -> (mpsc::Sender<T>, JoinHandle<usize>)
where
    T: Send + 'static,
    F: Fn(T) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let _ = simultaneos;
    let (tx, mut rx) = mpsc::channel(capacidad);
    let despachador = tokio::spawn(async move {
        let mut en_marcha = JoinSet::new();
        while let Some(trabajo) = rx.recv().await {
            en_marcha.spawn(atiende(trabajo));
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
