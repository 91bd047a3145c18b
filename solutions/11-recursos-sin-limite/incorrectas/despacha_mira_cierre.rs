//! Respuesta incorrecta: antes de cada trabajo mira `rx.is_closed()` y, si
//! la cola está cerrada, deja de sacar. Pero cerrada no quiere decir vacía:
//! lo que seguía en la cola cuando se soltaron los emisores ya estaba
//! aceptado, y no lo atiende nadie.

use std::future::Future;
use std::sync::Arc;

use tokio::sync::{Semaphore, mpsc};
use tokio::task::{JoinHandle, JoinSet};

/// Arranca el despachador. Devuelve el emisor de la cola y el `JoinHandle`
/// que, al cerrarse la cola, da cuántos trabajos se atendieron.
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
        let mut atendidos = 0;
        loop {
            // El permiso antes que el trabajo: mientras no hay sitio, los
            // trabajos esperan en la cola, que es acotada.
            let permiso = permisos.clone().acquire_owned().await.expect("el semáforo no se cierra");
            if rx.is_closed() {
                break;
            }
            let Some(trabajo) = rx.recv().await else { break };
            let futuro = atiende(trabajo);
            en_marcha.spawn(async move {
                futuro.await;
                drop(permiso);
            });
            // Recoge los que ya acabaron, para que el JoinSet no crezca.
            while let Some(hecho) = en_marcha.try_join_next() {
                hecho.expect("un trabajo entró en pánico");
                atendidos += 1;
            }
        }
        // La cola se cerró y está vacía: termina lo que queda en marcha.
        while let Some(hecho) = en_marcha.join_next().await {
            hecho.expect("un trabajo entró en pánico");
            atendidos += 1;
        }
        atendidos
    });
    (tx, despachador)
}
