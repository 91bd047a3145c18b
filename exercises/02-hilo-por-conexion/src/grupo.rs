//! Ejercicio 3: un grupo acotado de hilos trabajadores.
//!
//! Un hilo por conexión no tiene freno: cada cliente nuevo es un hilo más.
//! Un grupo de hilos (*thread pool*) acotado pone dos límites: como mucho
//! `trabajadores` hilos, creados al principio, y como mucho `cola` trabajos
//! esperando a que un trabajador quede libre. Lo que no cabe se rechaza al
//! momento y vuelve a quien lo ofreció (un servidor respondería «ocupado» y
//! cerraría la conexión).
//!
//! - `nuevo` crea los `trabajadores` hilos; cada uno repite: sacar un
//!   trabajo de la cola y pasárselo a `atiende`.
//! - `ofrece` mete un trabajo en la cola sin bloquearse nunca: si la cola
//!   está llena, devuelve `Err(trabajo)`.
//! - `cierra` deja de aceptar trabajos, espera a que los trabajadores
//!   terminen todo lo que había en la cola y devuelve cuántos trabajos se
//!   atendieron en total.
//!
//! Cambia los campos de `Grupo` como quieras: las pruebas solo usan estas
//! tres funciones. `std::sync::mpsc::sync_channel` es una cola acotada.

use std::marker::PhantomData;

/// Un grupo de hilos trabajadores con una cola acotada.
pub struct Grupo<T> {
    _pendiente: PhantomData<fn(T)>,
}

impl<T: Send + 'static> Grupo<T> {
    /// Crea `trabajadores` hilos que atienden trabajos con `atiende`; caben
    /// `cola` trabajos esperando.
    pub fn nuevo(trabajadores: usize, cola: usize, atiende: impl Fn(T) + Send + Sync + 'static) -> Grupo<T> {
        let _ = (trabajadores, cola, atiende);
        todo!("un sync_channel(cola) y `trabajadores` hilos que comparten el receptor")
    }

    /// Ofrece un trabajo. Si no cabe, lo devuelve en `Err`, sin esperar.
    pub fn ofrece(&self, trabajo: T) -> Result<(), T> {
        let _ = trabajo;
        todo!("try_send: si la cola está llena, devuelve el trabajo")
    }

    /// Cierra el grupo, espera a los trabajadores y devuelve cuántos
    /// trabajos atendieron.
    pub fn cierra(self) -> usize {
        todo!("suelta el emisor para que los trabajadores terminen, y júntalos")
    }
}
