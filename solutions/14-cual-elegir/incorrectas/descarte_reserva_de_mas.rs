// Respuesta incorrecta: compara con `<=` en vez de `<`. Una normal que deja
// libres justo `reserva` permisos no se come la reserva, pero esta versión la
// rechaza igual: guarda un sitio de más y rechaza trabajo que cabía.
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
//! El permiso se devuelve solo al soltar el `OwnedSemaphorePermit`. Cuidado
//! con el orden: mirar `available_permits()` y luego tomar el permiso deja un
//! hueco en el que otro hilo puede colarse. Es más seguro tomarlo primero con
//! `try_acquire_owned` y, si una normal ha dejado la reserva demasiado
//! pequeña, soltarlo y rechazar.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// La prioridad de una petición.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prioridad {
    Alta,
    Normal,
}

/// La petición no entra.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rechazada;

/// Un límite de peticiones a la vez, con una parte reservada.
#[derive(Debug, Clone)]
pub struct Portero {
    permisos: Arc<Semaphore>,
    reserva: usize,
}

impl Portero {
    /// `limite` peticiones a la vez, de las que `reserva` solo para las altas.
    pub fn new(limite: usize, reserva: usize) -> Self {
        assert!(reserva < limite, "la reserva debe dejar sitio a las normales");
        Portero { permisos: Arc::new(Semaphore::new(limite)), reserva }
    }

    /// Permisos libres ahora.
    pub fn libres(&self) -> usize {
        self.permisos.available_permits()
    }

    /// Intenta entrar, sin esperar.
    pub fn entra(&self, prioridad: Prioridad) -> Result<OwnedSemaphorePermit, Rechazada> {
        let permiso = self.permisos.clone().try_acquire_owned().map_err(|_| Rechazada)?;
        if prioridad == Prioridad::Normal && self.permisos.available_permits() <= self.reserva {
            drop(permiso); // se comería la reserva: lo devuelve
            return Err(Rechazada);
        }
        Ok(permiso)
    }
}
