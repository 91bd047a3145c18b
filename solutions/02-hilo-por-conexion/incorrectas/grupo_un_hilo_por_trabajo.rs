//! Respuesta incorrecta plausible: «ofrecer» lanza un hilo nuevo para cada
//! trabajo. Es otra vez un hilo por conexión, con otro nombre.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

pub struct Grupo<T> {
    atiende: Arc<dyn Fn(T) + Send + Sync>,
    hilos: Mutex<Vec<JoinHandle<()>>>,
    hechos: Arc<AtomicUsize>,
}

impl<T: Send + 'static> Grupo<T> {
    pub fn nuevo(trabajadores: usize, cola: usize, atiende: impl Fn(T) + Send + Sync + 'static) -> Grupo<T> {
        let _ = (trabajadores, cola);
        Grupo { atiende: Arc::new(atiende), hilos: Mutex::new(Vec::new()), hechos: Arc::new(AtomicUsize::new(0)) }
    }

    pub fn ofrece(&self, trabajo: T) -> Result<(), T> {
        let atiende = Arc::clone(&self.atiende);
        let hechos = Arc::clone(&self.hechos);
        let hilo = std::thread::spawn(move || {
            atiende(trabajo);
            hechos.fetch_add(1, Ordering::SeqCst);
        });
        self.hilos.lock().unwrap().push(hilo);
        Ok(())
    }

    pub fn cierra(self) -> usize {
        for hilo in self.hilos.into_inner().unwrap() {
            let _ = hilo.join();
        }
        self.hechos.load(Ordering::SeqCst)
    }
}
