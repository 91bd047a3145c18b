//! Respuesta incorrecta plausible: la cola es un `mpsc::channel`, sin
//! límite. Nunca rechaza nada: con tráfico de sobra, los trabajos se
//! acumulan en memoria sin freno.

use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

pub struct Grupo<T> {
    cola: Sender<T>,
    trabajadores: Vec<JoinHandle<usize>>,
}

impl<T: Send + 'static> Grupo<T> {
    pub fn nuevo(trabajadores: usize, cola: usize, atiende: impl Fn(T) + Send + Sync + 'static) -> Grupo<T> {
        let _ = cola;
        let (emisor, receptor) = mpsc::channel();
        let receptor: Arc<Mutex<Receiver<T>>> = Arc::new(Mutex::new(receptor));
        let atiende = Arc::new(atiende);
        let trabajadores = (0..trabajadores)
            .map(|_| {
                let receptor = Arc::clone(&receptor);
                let atiende = Arc::clone(&atiende);
                std::thread::spawn(move || {
                    let mut hechos = 0;
                    while let Ok(trabajo) = {
                        let r = receptor.lock().unwrap().recv();
                        r
                    } {
                        atiende(trabajo);
                        hechos += 1;
                    }
                    hechos
                })
            })
            .collect();
        Grupo { cola: emisor, trabajadores }
    }

    pub fn ofrece(&self, trabajo: T) -> Result<(), T> {
        self.cola.send(trabajo).map_err(|e| e.0)
    }

    pub fn cierra(self) -> usize {
        drop(self.cola);
        self.trabajadores.into_iter().map(|t| t.join().unwrap_or(0)).sum()
    }
}
