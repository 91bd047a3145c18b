//! El protocolo de aparcar del capítulo 09, reducido a un modelo que loom
//! puede recorrer entero: un trabajador, un productor, un contador de tareas.
//!
//! Todo usa `loom::sync`: fuera de `loom::model` estos tipos no funcionan,
//! y por eso el modelo vive aquí y no en el ejecutor del capítulo 09. El
//! `Arc` es el de `std`: el de loom, al soltarse mientras loom informa de
//! un bloqueo, vuelve a entrar en loom y aborta el proceso.

use loom::sync::atomic::{AtomicUsize, Ordering, fence};
use std::sync::Arc;

use loom::sync::{Condvar, Mutex};

use crate::bitacora::anota;

/// Cómo aparca el trabajador.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aparcar {
    /// Se apunta como dormido y, con el candado tomado, vuelve a mirar.
    Correcto,
    /// Se apunta y espera sin volver a mirar: lo que se encoló después de
    /// su última mirada y antes de apuntarse se queda sin aviso.
    SinVolverAMirar,
}

// ANCHOR: modelo
/// Lo que comparten el trabajador y el productor.
pub struct Compartido {
    /// Tareas en la cola (solo importa cuántas).
    pub pendientes: AtomicUsize,
    /// Cuántos duermen o van a dormir; cambia solo con `dormitorio` tomado.
    pub dormidos: AtomicUsize,
    pub dormitorio: Mutex<()>,
    pub despertador: Condvar,
}

impl Compartido {
    /// Saca una tarea si la hay.
    fn toma(&self) -> bool {
        let mut n = self.pendientes.load(Ordering::SeqCst);
        while n > 0 {
            match self.pendientes.compare_exchange(n, n - 1, Ordering::SeqCst, Ordering::SeqCst) {
                Ok(_) => return true,
                Err(actual) => n = actual,
            }
        }
        false
    }

    /// Encola una tarea y avisa solo si alguien duerme (como `avisa_a_un_dormido`).
    pub fn inyecta(&self) {
        self.pendientes.fetch_add(1, Ordering::SeqCst);
        anota("P", "inyecta una tarea");
        // loom trata un acceso SeqCst como AcqRel; la valla SeqCst sí la
        // modela: con ella, o el trabajador ve la tarea o aquí se ve al dormido.
        fence(Ordering::SeqCst);
        if self.dormidos.load(Ordering::SeqCst) > 0 {
            let _dormitorio = self.dormitorio.lock().unwrap();
            anota("P", "dormidos > 0: avisa");
            self.despertador.notify_one();
        } else {
            anota("P", "dormidos es 0: no avisa a nadie");
        }
    }

    /// El trabajador no encontró nada: duerme.
    pub fn aparca(&self, como: Aparcar) {
        let mut dormitorio = self.dormitorio.lock().unwrap();
        self.dormidos.fetch_add(1, Ordering::SeqCst);
        fence(Ordering::SeqCst);
        anota("T", "aparca: dormidos pasa a 1");
        match como {
            Aparcar::Correcto => {
                while self.pendientes.load(Ordering::SeqCst) == 0 {
                    anota("T", "vuelve a mirar: nada; espera");
                    dormitorio = self.despertador.wait(dormitorio).unwrap();
                    anota("T", "despierta");
                }
            }
            Aparcar::SinVolverAMirar => {
                anota("T", "espera sin volver a mirar");
                dormitorio = self.despertador.wait(dormitorio).unwrap();
                anota("T", "despierta");
            }
        }
        self.dormidos.fetch_sub(1, Ordering::SeqCst);
        drop(dormitorio);
    }
}

/// Una ejecución del modelo: `tareas` tareas inyectadas desde `productores`
/// hilos, y un trabajador que no termina hasta haberlas hecho todas.
pub fn escena(como: Aparcar, productores: usize, tareas: usize) {
    let compartido = Arc::new(Compartido {
        pendientes: AtomicUsize::new(0),
        dormidos: AtomicUsize::new(0),
        dormitorio: Mutex::new(()),
        despertador: Condvar::new(),
    });
    let mut hilos = Vec::new();
    for p in 0..productores {
        let c = Arc::clone(&compartido);
        let suyas = tareas / productores + usize::from(p < tareas % productores);
        hilos.push(loom::thread::spawn(move || {
            for _ in 0..suyas {
                c.inyecta();
            }
        }));
    }
    let mut hechas = 0;
    while hechas < tareas {
        if compartido.toma() {
            anota("T", "busca_tarea: saca una");
            hechas += 1;
        } else {
            anota("T", "busca_tarea: no hay nada");
            compartido.aparca(como);
        }
    }
    for hilo in hilos {
        hilo.join().unwrap();
    }
}
// ANCHOR_END: modelo
