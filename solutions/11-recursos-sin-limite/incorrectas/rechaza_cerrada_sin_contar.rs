//! Respuesta incorrecta: distingue bien `Llena` de `Cerrada`, pero solo cuenta
//! como rechazadas las de cola llena. Los rechazos por cierre no aparecen en
//! ninguna cuenta: `aceptadas + rechazadas` ya no es lo que se ofreció.

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

/// La recepción: acepta mientras cabe, rechaza al momento cuando no.
pub struct Recepcion<T> {
    tx: mpsc::Sender<T>,
    aceptadas: AtomicU64,
    rechazadas: AtomicU64,
}

impl<T> Recepcion<T> {
    /// Una recepción con sitio para `capacidad` trabajos (al menos 1) y el
    /// buzón del que salen.
    pub fn nueva(capacidad: usize) -> (Recepcion<T>, Buzon<T>) {
        let (tx, rx) = mpsc::channel(capacidad);
        (Recepcion { tx, aceptadas: AtomicU64::new(0), rechazadas: AtomicU64::new(0) }, Buzon { rx })
    }

    /// Ofrece un trabajo: `Ok(())` si entró en la cola; si no, el rechazo con
    /// el trabajo dentro. Nunca espera.
    pub async fn ofrece(&self, trabajo: T) -> Result<(), Rechazo<T>> {
        let resultado = match self.tx.try_send(trabajo) {
            Ok(()) => Ok(()),
            Err(mpsc::error::TrySendError::Full(t)) => Err(Rechazo::Llena(t)),
            Err(mpsc::error::TrySendError::Closed(t)) => Err(Rechazo::Cerrada(t)),
        };
        match &resultado {
            Ok(()) => {
                self.aceptadas.fetch_add(1, Ordering::Relaxed);
            }
            Err(Rechazo::Llena(_)) => {
                self.rechazadas.fetch_add(1, Ordering::Relaxed);
            }
            Err(Rechazo::Cerrada(_)) => {}
        }
        resultado
    }

    /// Cuántos trabajos se han aceptado.
    pub fn aceptadas(&self) -> u64 {
        self.aceptadas.load(Ordering::Relaxed)
    }

    /// Cuántos trabajos se han rechazado.
    pub fn rechazadas(&self) -> u64 {
        self.rechazadas.load(Ordering::Relaxed)
    }
}

/// El lado de quien atiende: de aquí salen los trabajos aceptados, en orden.
pub struct Buzon<T> {
    rx: mpsc::Receiver<T>,
}

impl<T> Buzon<T> {
    /// Espera el siguiente trabajo; `None` cuando la recepción se soltó y no
    /// queda nada.
    pub async fn recibe(&mut self) -> Option<T> {
        self.rx.recv().await
    }

    /// El siguiente trabajo si ya hay uno, sin esperar.
    pub fn intenta_recibir(&mut self) -> Option<T> {
        self.rx.try_recv().ok()
    }
}
