//! Una bitácora por ejecución: lo que cada hilo del modelo va haciendo, en
//! el orden en que el explorador lo decidió.
//!
//! loom y shuttle ejecutan todos los hilos del modelo dentro de un solo
//! hilo del sistema (cambian de pila, no de hilo), así que una variable
//! `thread_local!` normal ve cada paso en orden y no interfiere con otras
//! pruebas que corran en paralelo.

use std::cell::{Cell, RefCell};

thread_local! {
    static LINEAS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    static EJECUCIONES: Cell<usize> = const { Cell::new(0) };
}

/// Empieza una ejecución nueva: vacía la bitácora y la cuenta.
pub fn nueva_ejecucion() {
    LINEAS.with(|l| l.borrow_mut().clear());
    EJECUCIONES.with(|e| e.set(e.get() + 1));
}

/// Apunta un paso de `quien`.
pub fn anota(quien: &str, que: &str) {
    LINEAS.with(|l| {
        let mut l = l.borrow_mut();
        let n = l.len() + 1;
        l.push(format!("{n:>3}  {quien}  {que}"));
    });
}

/// La bitácora de la última ejecución.
pub fn lineas() -> Vec<String> {
    LINEAS.with(|l| l.borrow().clone())
}

/// Cuántas ejecuciones empezaron desde la última puesta a cero.
pub fn ejecuciones() -> usize {
    EJECUCIONES.with(Cell::get)
}

/// Pone a cero la cuenta de ejecuciones.
pub fn cero() {
    EJECUCIONES.with(|e| e.set(0));
    LINEAS.with(|l| l.borrow_mut().clear());
}
