//! Ejercicio 2: una recepción que dice «no» a tiempo.
//!
//! Ante un pico de tráfico hay tres formas de recibir un trabajo que no
//! cabe: aceptarlo igualmente en una cola sin límite (la memoria crece hasta
//! que el sistema mata el proceso), esperar a que haya sitio (quien llama se
//! queda colgado, y con él su memoria) o decir que no enseguida. `Recepcion`
//! hace lo tercero:
//!
//! - `Recepcion::nueva(capacidad)` crea una cola acotada (un
//!   `tokio::sync::mpsc::channel(capacidad)`) y devuelve la recepción y el
//!   [`Buzon`] del que sacará los trabajos quien los atienda.
//! - `ofrece(trabajo)` mete el trabajo en la cola si cabe y devuelve
//!   `Ok(())`. Si no cabe, `Err(Rechazo::Llena(trabajo))`; si ya nadie recibe
//!   (el buzón se soltó), `Err(Rechazo::Cerrada(trabajo))`.
//! - `aceptadas()` y `rechazadas()` cuentan lo que pasó.
//!
//! Es `async` porque en un servidor la llamaría una tarea, pero tiene que
//! volver en el primer sondeo: **nunca espera** a que haya sitio. Y **nunca
//! tira nada en silencio**: lo aceptado llega al buzón y lo rechazado vuelve a
//! quien lo ofreció, con el motivo.

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
    #[allow(dead_code)] // aún sin usar: lo usarás en `ofrece`
    tx: mpsc::Sender<T>,
    aceptadas: AtomicU64,
    rechazadas: AtomicU64,
}

impl<T> Recepcion<T> {
    /// Una recepción con sitio para `capacidad` trabajos (al menos 1) y el
    /// buzón del que salen.
    pub fn nueva(capacidad: usize) -> (Recepcion<T>, Buzon<T>) {
        let _ = capacidad;
        todo!("crea un mpsc::channel(capacidad) y reparte sus dos mitades")
    }

    /// Ofrece un trabajo: `Ok(())` si entró en la cola; si no, el rechazo con
    /// el trabajo dentro. Nunca espera.
    pub async fn ofrece(&self, trabajo: T) -> Result<(), Rechazo<T>> {
        let _ = trabajo;
        todo!("try_send no espera: mira qué error devuelve y cuenta cada caso")
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
