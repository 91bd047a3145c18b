//! Respuesta incorrecta plausible: `while let Ok(t) = receptor.lock().unwrap().recv()`.
//! Parece igual que tomar el candado en su propia línea, pero los temporales
//! de la condición de un `while let` viven todo el cuerpo: el trabajador que
//! atiende se queda el candado y los demás no pueden sacar nada de la cola.
//! Hay N hilos, pero se trabaja de uno en uno.

use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
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
                    while let Ok(trabajo) = receptor.lock().unwrap().recv() {
                        atiende(trabajo);
                        hechos += 1;
                    }
                    hechos
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
