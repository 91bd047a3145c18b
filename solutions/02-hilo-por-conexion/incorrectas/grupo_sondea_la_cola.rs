//! Respuesta incorrecta plausible: los trabajadores preguntan a la cola con
//! `try_recv` y, si está vacía, ceden el procesador con `yield_now` y
//! vuelven a preguntar. Atienden todo, pero sin trabajo queman CPU (una
//! espera activa) en vez de dormir en `recv`.

use std::sync::mpsc::{self, Receiver, SyncSender, TryRecvError, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Un grupo de hilos trabajadores con una cola acotada.
pub struct Grupo<T> {
    cola: SyncSender<T>,
    trabajadores: Vec<JoinHandle<usize>>,
}

impl<T: Send + 'static> Grupo<T> {
    /// Crea `trabajadores` hilos que atienden trabajos con `atiende`; caben
    /// `cola` trabajos esperando.
    pub fn nuevo(trabajadores: usize, cola: usize, atiende: impl Fn(T) + Send + Sync + 'static) -> Grupo<T> {
        let (emisor, receptor) = mpsc::sync_channel(cola);
        let receptor: Arc<Mutex<Receiver<T>>> = Arc::new(Mutex::new(receptor));
        let atiende = Arc::new(atiende);
        let trabajadores = (0..trabajadores)
            .map(|_| {
                let receptor = Arc::clone(&receptor);
                let atiende = Arc::clone(&atiende);
                std::thread::spawn(move || {
                    let mut hechos = 0;
                    loop {
                        let siguiente = receptor.lock().unwrap().try_recv();
                        match siguiente {
                            Ok(trabajo) => {
                                atiende(trabajo);
                                hechos += 1;
                            }
                            Err(TryRecvError::Empty) => std::thread::yield_now(),
                            Err(TryRecvError::Disconnected) => return hechos,
                        }
                    }
                })
            })
            .collect();
        Grupo { cola: emisor, trabajadores }
    }

    /// Ofrece un trabajo. Si no cabe, lo devuelve en `Err`, sin esperar.
    pub fn ofrece(&self, trabajo: T) -> Result<(), T> {
        self.cola.try_send(trabajo).map_err(|e| match e {
            TrySendError::Full(t) | TrySendError::Disconnected(t) => t,
        })
    }

    /// Cierra el grupo, espera a los trabajadores y devuelve cuántos
    /// trabajos atendieron.
    pub fn cierra(self) -> usize {
        drop(self.cola); // sin emisores, recv devuelve Err cuando la cola se vacía
        self.trabajadores.into_iter().map(|t| t.join().unwrap_or(0)).sum()
    }
}
