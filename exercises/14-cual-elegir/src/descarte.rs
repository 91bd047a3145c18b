//! Ejercicio 3: un portero con reserva para lo urgente.
//!
//! El `Semaphore` de la lección trata igual todas las peticiones: cuando no
//! quedan permisos, rechaza la siguiente, sea la que sea. Un servicio real
//! suele querer otra cosa: bajo carga, descartar antes lo que puede esperar
//! (una petición normal) que lo que no (un pago, una comprobación de salud).
//!
//! `Portero` guarda `reserva` permisos para las peticiones de prioridad alta:
//!
//! - una petición **normal** entra solo si, después de entrar, quedan al
//!   menos `reserva` permisos libres;
//! - una de prioridad **alta** entra si queda cualquier permiso;
//! - nadie espera: si no puede entrar, `Err(Rechazada)` en el acto.
//!
//! El permiso se devuelve solo al soltar el que devuelve `entra`. Cuidado con
//! el orden: mirar `available_permits()` y luego tomar el permiso deja un
//! hueco en el que otro hilo puede colarse. Es más seguro tomarlo primero con
//! `try_acquire_owned` y, si una normal ha dejado la reserva demasiado
//! pequeña, soltarlo y rechazar.
//!
//! El portero no usa `tokio::sync::Semaphore` directamente, sino cualquier
//! [`Semaforo`]: el de Tokio lo es, con los mismos nombres
//! (`available_permits` y `try_acquire_owned`), y es el que usa
//! `Portero::new`. Las pruebas meten además otro, uno que deja entrar a una
//! petición más justo después de que mires los permisos libres: así abren
//! siempre, a propósito, el hueco entre mirar y tomar. Tú escribe `entra` con
//! esas dos llamadas y funcionará con los dos.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, TryAcquireError};

/// La prioridad de una petición.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prioridad {
    Alta,
    Normal,
}

/// La petición no entra.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rechazada;

/// Lo que el portero usa de un semáforo: lo mismo, y con los mismos nombres,
/// que `tokio::sync::Semaphore`. Ya está hecho.
pub trait Semaforo: Send + Sync + 'static {
    /// Lo que da `try_acquire_owned`: soltarlo devuelve el permiso.
    type Permiso: Send + 'static;
    /// Los permisos libres ahora.
    fn available_permits(&self) -> usize;
    /// Toma un permiso, sin esperar.
    fn try_acquire_owned(self: Arc<Self>) -> Result<Self::Permiso, TryAcquireError>;
}

impl Semaforo for Semaphore {
    type Permiso = OwnedSemaphorePermit;

    fn available_permits(&self) -> usize {
        Semaphore::available_permits(self)
    }

    fn try_acquire_owned(self: Arc<Self>) -> Result<OwnedSemaphorePermit, TryAcquireError> {
        Semaphore::try_acquire_owned(self)
    }
}

/// Un límite de peticiones a la vez, con una parte reservada.
#[derive(Debug)]
pub struct Portero<S = Semaphore> {
    permisos: Arc<S>,
    reserva: usize,
}

impl<S> Clone for Portero<S> {
    fn clone(&self) -> Self {
        Portero { permisos: Arc::clone(&self.permisos), reserva: self.reserva }
    }
}

impl Portero {
    /// `limite` peticiones a la vez, de las que `reserva` solo para las altas.
    pub fn new(limite: usize, reserva: usize) -> Self {
        Portero::con_semaforo(Arc::new(Semaphore::new(limite)), reserva)
    }
}

impl<S: Semaforo> Portero<S> {
    /// Un portero sobre `permisos`: sus permisos libres de ahora son el
    /// límite, y `reserva` de ellos son solo para las altas.
    pub fn con_semaforo(permisos: Arc<S>, reserva: usize) -> Self {
        assert!(reserva < permisos.available_permits(), "la reserva debe dejar sitio a las normales");
        Portero { permisos, reserva }
    }

    /// Permisos libres ahora.
    pub fn libres(&self) -> usize {
        self.permisos.available_permits()
    }

    /// Intenta entrar, sin esperar.
    pub fn entra(&self, prioridad: Prioridad) -> Result<S::Permiso, Rechazada> {
        let _ = (prioridad, self.reserva);
        todo!(
            "toma un permiso con try_acquire_owned; si es Normal y deja menos de `reserva` libres, suéltalo y rechaza"
        )
    }
}
