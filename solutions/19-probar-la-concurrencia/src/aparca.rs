//! Ejercicio 1: el aviso que loom encontró, arreglado.
//!
//! `Dormitorio` es el protocolo de aparcar del capítulo 09, escrito con los
//! tipos de `loom` para que las pruebas puedan recorrer sus entrelazados.
//! Un trabajador que no encuentra trabajo llama a `aparca`; quien encola
//! llama a `avisa` (`encola` ya lo hace por ti).
//!
//! Escribe `aparca` y `avisa` de forma que:
//!
//! 1. ningún aviso se pierda: apúntate en `dormidos` con `candado` tomado
//!    y, con el candado aún tomado, VUELVE A MIRAR con `hay_trabajo()`;
//! 2. `avisa` solo toma el candado si `dormidos` es mayor que 0, y llama a
//!    `despertador.notify_one()` con el candado tomado (si avisaras sin él,
//!    el aviso podría llegar entre la mirada del trabajador y su `wait`): un
//!    aviso despierta a un trabajador, no a todos;
//! 3. `aparca` duerma de verdad (`despertador.wait`), sin dar vueltas, y
//!    vuelva solo cuando haya trabajo o se haya apagado (`apagado()`): un
//!    aviso sin trabajo no basta para volver;
//! 4. al volver, `dormidos` quede como estaba.
//!
//! `hay_trabajo` y `encola` llevan dentro una valla `fence(SeqCst)`: loom
//! trata cada acceso `SeqCst` como si fuera `AcqRel` y, sin las vallas,
//! avisaría de un aviso perdido que con `SeqCst` de verdad no puede pasar.
//! Úsalas tal como están.

use std::sync::atomic::AtomicUsize as Contador;

use loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering, fence};
use loom::sync::{Condvar, Mutex};

/// El dormitorio de un ejecutor: cuántas tareas hay y quién duerme.
pub struct Dormitorio {
    /// Tareas en la cola (solo importa cuántas).
    pub pendientes: AtomicUsize,
    /// Cuántos trabajadores duermen o van a dormir.
    pub dormidos: AtomicUsize,
    pub candado: Mutex<()>,
    pub despertador: Condvar,
    apagado: AtomicBool,
    /// Veces que alguien llamó a `hay_trabajo` (las pruebas lo miran: un
    /// trabajador que duerme no mira).
    pub miradas: Contador,
}

impl Default for Dormitorio {
    fn default() -> Self {
        Dormitorio::nuevo()
    }
}

impl Dormitorio {
    /// Un dormitorio vacío. Créalo dentro de `loom::model`.
    pub fn nuevo() -> Dormitorio {
        Dormitorio {
            pendientes: AtomicUsize::new(0),
            dormidos: AtomicUsize::new(0),
            candado: Mutex::new(()),
            despertador: Condvar::new(),
            apagado: AtomicBool::new(false),
            miradas: Contador::new(0),
        }
    }

    /// ¿Hay alguna tarea en la cola?
    pub fn hay_trabajo(&self) -> bool {
        self.miradas.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        fence(Ordering::SeqCst);
        self.pendientes.load(Ordering::SeqCst) > 0
    }

    /// ¿Se ha apagado el ejecutor?
    pub fn apagado(&self) -> bool {
        self.apagado.load(Ordering::SeqCst)
    }

    /// Saca una tarea si la hay.
    pub fn toma(&self) -> bool {
        let mut n = self.pendientes.load(Ordering::SeqCst);
        while n > 0 {
            match self.pendientes.compare_exchange(n, n - 1, Ordering::SeqCst, Ordering::SeqCst) {
                Ok(_) => return true,
                Err(actual) => n = actual,
            }
        }
        false
    }

    /// Encola una tarea y avisa.
    pub fn encola(&self) {
        self.pendientes.fetch_add(1, Ordering::SeqCst);
        fence(Ordering::SeqCst);
        self.avisa();
    }

    /// Apaga el ejecutor y despierta a todos.
    pub fn apaga(&self) {
        self.apagado.store(true, Ordering::SeqCst);
        let _candado = self.candado.lock().unwrap();
        self.despertador.notify_all();
    }

    /// Duerme hasta que haya trabajo o se apague el ejecutor.
    pub fn aparca(&self) {
        let mut candado = self.candado.lock().unwrap();
        self.dormidos.fetch_add(1, Ordering::SeqCst);
        // Apuntado primero, mirar después, con el candado tomado.
        while !self.hay_trabajo() && !self.apagado() {
            candado = self.despertador.wait(candado).unwrap();
        }
        self.dormidos.fetch_sub(1, Ordering::SeqCst);
        drop(candado);
    }

    /// Despierta a un trabajador dormido, si lo hay.
    pub fn avisa(&self) {
        if self.dormidos.load(Ordering::SeqCst) > 0 {
            let _candado = self.candado.lock().unwrap();
            self.despertador.notify_one();
        }
    }
}
