//! Ejercicio 3 (solución): `sync_channel(cola)` es la cola acotada; los
//! trabajadores comparten el receptor detrás de un `Mutex`. Un pánico de
//! `atiende` se atrapa en el trabajador, que sigue con lo siguiente, y
//! `cierra` lo relanza al final. Los tipos vienen de `super::sync`: los de
//! `std` en el programa, los de shuttle en `crate::modelo`.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};

use super::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use super::sync::thread::{self, JoinHandle};
use super::sync::{Arc, Mutex};

/// Lo que devuelve cada trabajador: cuántos trabajos atendió y el primer
/// pánico de `atiende` que vio, si hubo alguno.
type Balance = (usize, Option<Box<dyn Any + Send>>);

/// Un grupo de hilos trabajadores con una cola acotada.
pub struct Grupo<T> {
    cola: SyncSender<T>,
    trabajadores: Vec<JoinHandle<Balance>>,
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
                thread::spawn(move || {
                    let (mut hechos, mut panico) = (0, None);
                    loop {
                        // La guarda del Mutex muere al final de esta línea:
                        // mientras uno trabaja, otro puede esperar en recv.
                        let siguiente = receptor.lock().unwrap().recv();
                        let Ok(trabajo) = siguiente else {
                            return (hechos, panico); // cerrado y vacío
                        };
                        // Un pánico de `atiende` no se lleva al trabajador:
                        // se guarda para `cierra` y se sigue con la cola.
                        match panic::catch_unwind(AssertUnwindSafe(|| atiende(trabajo))) {
                            Ok(()) => hechos += 1,
                            Err(carga) => {
                                panico.get_or_insert(carga);
                            }
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
    /// trabajos atendieron. Si `atiende` entró en pánico, lo relanza.
    pub fn cierra(self) -> usize {
        drop(self.cola); // sin emisores, recv devuelve Err cuando la cola se vacía
        let (mut total, mut primero) = (0, None);
        for trabajador in self.trabajadores {
            match trabajador.join() {
                Ok((hechos, panico)) => {
                    total += hechos;
                    primero = primero.or(panico);
                }
                Err(carga) => primero = primero.or(Some(carga)),
            }
        }
        if let Some(carga) = primero {
            panic::resume_unwind(carga);
        }
        total
    }
}
