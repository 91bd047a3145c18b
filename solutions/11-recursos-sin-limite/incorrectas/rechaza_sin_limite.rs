//! Respuesta incorrecta: una cola sin límite (`unbounded_channel`) y un
//! contador de aceptadas como «capacidad». El contador cuenta lo aceptado en
//! total, no lo que sigue en la cola: cuando llega a la capacidad, la
//! recepción rechaza para siempre aunque el buzón ya esté vacío.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::mpsc;

/// Por qué no se aceptó un trabajo. Cada variante devuelve el trabajo a
/// quien lo ofreció: nada se pierde sin que nadie se entere.
#[derive(Debug, PartialEq, Eq)]
pub enum Rechazo<T> {
    /// La cola está llena. Un servidor HTTP respondería 503: «vuelve luego».
    Llena(T),
    /// Ya nadie recibe trabajos: el servicio se está apagando.
    Cerrada(T),
}

impl<T> Rechazo<T> {
    /// El trabajo rechazado, de vuelta.
    pub fn trabajo(self) -> T {
        match self {
            Rechazo::Llena(t) | Rechazo::Cerrada(t) => t,
        }
    }
}

impl<T> fmt::Display for Rechazo<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rechazo::Llena(_) => write!(f, "rechazado: la cola está llena; vuelve a intentarlo más tarde"),
            Rechazo::Cerrada(_) => write!(f, "rechazado: el servicio ya no recibe trabajos"),
        }
    }
}

impl<T: fmt::Debug> std::error::Error for Rechazo<T> {}

pub struct Recepcion<T> {
    tx: mpsc::UnboundedSender<T>,
    capacidad: u64,
    aceptadas: AtomicU64,
    rechazadas: AtomicU64,
}

impl<T> Recepcion<T> {
    pub fn nueva(capacidad: usize) -> (Recepcion<T>, Buzon<T>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let recepcion =
            Recepcion { tx, capacidad: capacidad as u64, aceptadas: AtomicU64::new(0), rechazadas: AtomicU64::new(0) };
        (recepcion, Buzon { rx })
    }

    pub async fn ofrece(&self, trabajo: T) -> Result<(), Rechazo<T>> {
        if self.aceptadas.load(Ordering::Relaxed) >= self.capacidad {
            self.rechazadas.fetch_add(1, Ordering::Relaxed);
            return Err(Rechazo::Llena(trabajo));
        }
        match self.tx.send(trabajo) {
            Ok(()) => {
                self.aceptadas.fetch_add(1, Ordering::Relaxed);
                Ok(())
            }
            Err(mpsc::error::SendError(t)) => {
                self.rechazadas.fetch_add(1, Ordering::Relaxed);
                Err(Rechazo::Cerrada(t))
            }
        }
    }

    pub fn aceptadas(&self) -> u64 {
        self.aceptadas.load(Ordering::Relaxed)
    }

    pub fn rechazadas(&self) -> u64 {
        self.rechazadas.load(Ordering::Relaxed)
    }
}

pub struct Buzon<T> {
    rx: mpsc::UnboundedReceiver<T>,
}

impl<T> Buzon<T> {
    pub async fn recibe(&mut self) -> Option<T> {
        self.rx.recv().await
    }

    pub fn intenta_recibir(&mut self) -> Option<T> {
        self.rx.try_recv().ok()
    }
}
