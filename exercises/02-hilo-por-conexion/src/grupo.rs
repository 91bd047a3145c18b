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
//!   está llena, devuelve `Err(trabajo)`. Con muchos hilos ofreciendo a la
//!   vez, tampoco entra ni uno de más.
//! - `cierra` deja de aceptar trabajos, espera a que los trabajadores
//!   terminen todo lo que había en la cola y devuelve cuántos trabajos se
//!   atendieron en total.
//!
//! Si `atiende` entra en pánico con un trabajo, ese trabajo no cuenta como
//! atendido, pero el trabajador no muere: sigue con el siguiente (un
//! servidor no puede perder un hilo por cada petición que falla). Y el
//! pánico no se esconde: `cierra`, después de esperar a todos, lo relanza
//! con su carga original (`std::panic::catch_unwind` y
//! `std::panic::resume_unwind`).
//!
//! Cambia los campos de `Grupo` como quieras: las pruebas solo usan estas
//! tres funciones. `mpsc::sync_channel` es una cola acotada.
//!
//! # Los tipos, de `super::sync`
//!
//! Toma `Mutex`, `Arc`, `Condvar`, `mpsc`, `atomic` y `thread` de
//! `super::sync`, no de `std`:
//!
//! ```text
//! use super::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
//! use super::sync::thread::{self, JoinHandle};
//! use super::sync::{Arc, Mutex};
//! ```
//!
//! y escribe `thread::spawn`, `mpsc::sync_channel`... como siempre. En el
//! programa son los mismos de `std`. Las pruebas compilan este archivo otra
//! vez con los de shuttle (`por_conexion::modelo`, en `lib.rs`), que
//! recorren cientos de órdenes distintos entre tus hilos: así una carrera
//! que con hilos de verdad sale una vez de cada mil sale siempre. Si nombras
//! `std::sync` o `std::thread` aquí, esas pruebas te lo dirán.

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
    /// trabajos atendieron. Si `atiende` entró en pánico, lo relanza.
    pub fn cierra(self) -> usize {
        todo!("suelta el emisor para que los trabajadores terminen, y júntalos")
    }
}
