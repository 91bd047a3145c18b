//! Un trozo del ejecutor con robo de trabajo del capítulo 09, escrito con
//! `shuttle::sync`: colas locales, cola global, robo de la mitad y el
//! protocolo de aparcar. Las tareas son números; «sondear» una es contarla
//! y, a veces, lanzar una hija en la cola local.
//!
//! Es demasiado grande para que loom lo recorra entero, y justo para eso
//! está shuttle: lo ejecuta muchas veces con planificaciones elegidas al azar.

use std::collections::VecDeque;

use shuttle::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use shuttle::sync::{Arc, Condvar, Mutex};

use crate::aviso::Aparcar;
use crate::bitacora::anota;

/// Trabajadores del modelo.
pub const TRABAJADORES: usize = 2;
/// Tareas que se inyectan desde fuera; cada una lanza una hija.
pub const INYECTADAS: usize = 3;

// ANCHOR: compartido
struct Compartido {
    locales: Vec<Mutex<VecDeque<usize>>>,
    inyector: Mutex<VecDeque<usize>>,
    dormitorio: Mutex<()>,
    despertador: Condvar,
    dormidos: AtomicUsize,
    apagado: AtomicBool,
    hechas: AtomicUsize,
    como: Aparcar,
}
// ANCHOR_END: compartido

impl Compartido {
    fn hay_trabajo(&self) -> bool {
        !self.inyector.lock().unwrap().is_empty() || self.locales.iter().any(|c| !c.lock().unwrap().is_empty())
    }

    fn avisa_a_un_dormido(&self) {
        if self.dormidos.load(Ordering::SeqCst) > 0 {
            let _d = self.dormitorio.lock().unwrap();
            self.despertador.notify_one();
        }
    }

    /// Roba la mitad de la cola de otro, con un candado cada vez.
    fn roba(&self, yo: usize) -> Option<usize> {
        for v in (0..self.locales.len()).filter(|&v| v != yo) {
            let mut botin: Vec<usize> = {
                let mut cola = self.locales[v].lock().unwrap();
                let n = cola.len().div_ceil(2);
                cola.drain(..n).collect()
            };
            if !botin.is_empty() {
                let primera = botin.remove(0);
                self.locales[yo].lock().unwrap().extend(botin);
                return Some(primera);
            }
        }
        None
    }

    fn busca(&self, yo: usize) -> Option<usize> {
        if let Some(t) = self.locales[yo].lock().unwrap().pop_front() {
            return Some(t);
        }
        if let Some(t) = self.inyector.lock().unwrap().pop_front() {
            return Some(t);
        }
        self.roba(yo)
    }

    fn aparca(&self, quien: &str) {
        let mut dormitorio = self.dormitorio.lock().unwrap();
        self.dormidos.fetch_add(1, Ordering::SeqCst);
        match self.como {
            Aparcar::Correcto => {
                while !self.hay_trabajo() && !self.apagado.load(Ordering::SeqCst) {
                    anota(quien, "duerme");
                    dormitorio = self.despertador.wait(dormitorio).unwrap();
                }
            }
            Aparcar::SinVolverAMirar => {
                if !self.apagado.load(Ordering::SeqCst) {
                    anota(quien, "duerme sin volver a mirar");
                    dormitorio = self.despertador.wait(dormitorio).unwrap();
                }
            }
        }
        anota(quien, "despierta");
        self.dormidos.fetch_sub(1, Ordering::SeqCst);
        drop(dormitorio);
    }

    fn trabaja(&self, yo: usize, total: usize) {
        let quien = format!("T{yo}");
        while !self.apagado.load(Ordering::SeqCst) {
            anota(&quien, "busca");
            match self.busca(yo) {
                Some(tarea) => {
                    anota(&quien, &format!("sondea la tarea {tarea}"));
                    if tarea < INYECTADAS {
                        // Lanza una hija en su cola local, como `spawn` desde un trabajador.
                        let estaba_vacia = {
                            let mut cola = self.locales[yo].lock().unwrap();
                            cola.push_back(tarea + 100);
                            cola.len() == 1
                        };
                        if estaba_vacia {
                            self.avisa_a_un_dormido();
                        }
                    }
                    if self.hechas.fetch_add(1, Ordering::SeqCst) + 1 == total {
                        self.apagado.store(true, Ordering::SeqCst);
                        let _d = self.dormitorio.lock().unwrap();
                        self.despertador.notify_all();
                    }
                }
                None => {
                    anota(&quien, "no encuentra nada");
                    self.aparca(&quien);
                }
            }
        }
    }
}

// ANCHOR: escena
/// Una ejecución: `TRABAJADORES` hilos, y el hilo principal que inyecta
/// `INYECTADAS` tareas desde fuera, una a una, y espera a que acaben.
pub fn escena(como: Aparcar) {
    let total = 2 * INYECTADAS;
    let compartido = Arc::new(Compartido {
        locales: (0..TRABAJADORES).map(|_| Mutex::new(VecDeque::new())).collect(),
        inyector: Mutex::new(VecDeque::new()),
        dormitorio: Mutex::new(()),
        despertador: Condvar::new(),
        dormidos: AtomicUsize::new(0),
        apagado: AtomicBool::new(false),
        hechas: AtomicUsize::new(0),
        como,
    });
    let hilos: Vec<_> = (0..TRABAJADORES)
        .map(|yo| {
            let c = Arc::clone(&compartido);
            shuttle::thread::spawn(move || c.trabaja(yo, total))
        })
        .collect();
    for tarea in 0..INYECTADAS {
        compartido.inyector.lock().unwrap().push_back(tarea);
        anota("F", &format!("inyecta la tarea {tarea}"));
        compartido.avisa_a_un_dormido();
    }
    for hilo in hilos {
        hilo.join().unwrap();
    }
    assert_eq!(compartido.hechas.load(Ordering::SeqCst), total);
}
// ANCHOR_END: escena

/// La versión correcta, para el explorador.
pub fn correcta() {
    escena(Aparcar::Correcto);
}

/// La versión con el aviso perdido.
pub fn con_error() {
    escena(Aparcar::SinVolverAMirar);
}
