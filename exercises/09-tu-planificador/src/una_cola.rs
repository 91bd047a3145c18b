//! Versión (a): N hilos trabajadores y UNA cola compartida, protegida por un
//! solo `Mutex`, con una `Condvar` para dormir cuando no hay nada que hacer.
//! Es el diseño más sencillo que funciona, y el punto de partida de la
//! historia de casi todos los planificadores.

use std::collections::VecDeque;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::{self, JoinHandle};

use super::bloqueo::Vigia;
use super::ejecutor::Ejecutor;
use super::tarea::{Destino, Tarea};

// ANCHOR: estado
/// Lo que protege el único candado.
struct Estado {
    cola: VecDeque<Arc<Tarea>>,
    /// Cuántos trabajadores duermen en la `Condvar`...
    dormidos: usize,
    /// ...y a cuántos de ellos ya se ha avisado.
    avisados: usize,
    apagado: bool,
}

struct Compartido {
    estado: Mutex<Estado>,
    hay_tareas: Condvar,
    vigia: Vigia,
    hilos: Mutex<Vec<JoinHandle<()>>>,
    siguiente_id: AtomicUsize,
}
// ANCHOR_END: estado

/// El ejecutor de una cola. Clónalo para lanzar tareas desde otras tareas.
#[derive(Clone)]
pub struct UnaCola {
    compartido: Arc<Compartido>,
}

// ANCHOR: programa
impl Destino for Compartido {
    fn programa(&self, tarea: Arc<Tarea>) {
        let mut estado = self.estado.lock().unwrap();
        estado.cola.push_back(tarea);
        // Avisar cuesta una llamada al sistema: solo si alguien duerme y no
        // se le ha avisado ya.
        let avisar = estado.dormidos > estado.avisados;
        if avisar {
            estado.avisados += 1;
        }
        drop(estado);
        if avisar {
            self.hay_tareas.notify_one();
        }
    }
}
// ANCHOR_END: programa

// ANCHOR: trabajador
impl Compartido {
    /// La siguiente tarea, durmiendo si no hay ninguna. `None` al apagar.
    fn siguiente(&self) -> Option<Arc<Tarea>> {
        let mut estado = self.estado.lock().unwrap();
        loop {
            if estado.apagado {
                return None;
            }
            if let Some(tarea) = estado.cola.pop_front() {
                return Some(tarea);
            }
            // `wait` suelta el candado y duerme en un solo paso: nadie puede
            // encolar y avisar «en medio» sin que nos enteremos.
            estado.dormidos += 1;
            estado = self.hay_tareas.wait(estado).unwrap();
            estado.dormidos -= 1;
            estado.avisados = estado.avisados.saturating_sub(1);
        }
    }
}

fn trabajador(compartido: Arc<Compartido>) {
    let _guarda = compartido.vigia.guarda();
    while let Some(tarea) = compartido.siguiente() {
        tarea.sondea();
    }
}
// ANCHOR_END: trabajador

impl UnaCola {
    /// Arranca `hilos` hilos trabajadores (al menos uno).
    pub fn nuevo(hilos: usize) -> UnaCola {
        let compartido = Arc::new(Compartido {
            estado: Mutex::new(Estado { cola: VecDeque::new(), dormidos: 0, avisados: 0, apagado: false }),
            hay_tareas: Condvar::new(),
            vigia: Vigia::default(),
            hilos: Mutex::new(Vec::new()),
            siguiente_id: AtomicUsize::new(0),
        });
        let mut hilos_lanzados = Vec::new();
        for i in 0..hilos.max(1) {
            let compartido = Arc::clone(&compartido);
            let hilo = thread::Builder::new()
                .name(format!("una-cola-{i}"))
                .spawn(move || trabajador(compartido))
                .expect("no se pudo crear un hilo trabajador");
            hilos_lanzados.push(hilo);
        }
        *compartido.hilos.lock().unwrap() = hilos_lanzados;
        UnaCola { compartido }
    }
}

impl Ejecutor for UnaCola {
    fn lanza_desligada<F>(&self, future: F)
    where
        F: Future<Output = ()> + Send + 'static,
    {
        let id = self.compartido.siguiente_id.fetch_add(1, Ordering::Relaxed);
        let destino: Arc<dyn Destino> = self.compartido.clone();
        Tarea::nueva(id, Box::pin(future), destino).despierta();
    }

    fn bloquea_en<F: Future>(&self, future: F) -> F::Output {
        self.compartido.vigia.bloquea_en(future)
    }

    fn apaga(&self) {
        self.compartido.estado.lock().unwrap().apagado = true;
        self.compartido.hay_tareas.notify_all();
        let hilos = std::mem::take(&mut *self.compartido.hilos.lock().unwrap());
        let yo = thread::current().id();
        for hilo in hilos {
            if hilo.thread().id() != yo {
                let _ = hilo.join();
            }
        }
        // Las tareas que quedaron en la cola se sueltan fuera del candado: su
        // `drop` puede despertar a otras, y eso toma el candado.
        loop {
            let pendientes = std::mem::take(&mut self.compartido.estado.lock().unwrap().cola);
            if pendientes.is_empty() {
                break;
            }
            pendientes.iter().for_each(|t| t.descarta());
        }
    }
}
