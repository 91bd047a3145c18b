//! Respuesta incorrecta plausible: `cierra` suelta el emisor y devuelve
//! cuántos trabajos se aceptaron, sin esperar a los trabajadores. El número
//! sale bien, pero vuelve con trabajos en la cola y otros a medias.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Un grupo de hilos trabajadores con una cola acotada.
pub struct Grupo<T> {
    cola: SyncSender<T>,
    trabajadores: Vec<JoinHandle<usize>>,
    aceptados: AtomicUsize,
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
                        // La guarda del Mutex muere al final de esta línea:
                        // mientras uno trabaja, otro puede esperar en recv.
                        let siguiente = receptor.lock().unwrap().recv();
                        match siguiente {
                            Ok(trabajo) => {
                                atiende(trabajo);
                                hechos += 1;
                            }
                            Err(_) => return hechos, // cerrado y vacío
                        }
                    }
                })
            })
            .collect();
        Grupo { cola: emisor, trabajadores, aceptados: AtomicUsize::new(0) }
    }

    /// Ofrece un trabajo. Si no cabe, lo devuelve en `Err`, sin esperar.
    pub fn ofrece(&self, trabajo: T) -> Result<(), T> {
        self.cola.try_send(trabajo).map_err(|e| match e {
            TrySendError::Full(t) | TrySendError::Disconnected(t) => t,
        })?;
        self.aceptados.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }

    /// Cierra el grupo, espera a los trabajadores y devuelve cuántos
    /// trabajos atendieron.
    pub fn cierra(self) -> usize {
        drop(self.cola);
        drop(self.trabajadores); // que terminen solos
        self.aceptados.into_inner()
    }
}
