//! Ejercicio 2: una recepción que dice «no» a tiempo.
//!
//! Ante un pico de tráfico hay tres formas de recibir un trabajo que no
//! cabe: aceptarlo igualmente en una cola sin límite (la memoria crece hasta
//! que el sistema mata el proceso), esperar a que haya sitio (quien llama se
//! queda colgado, y con él su memoria) o decir que no enseguida. `Recepcion`
//! hace lo tercero:
//!
//! - `Recepcion::nueva(capacidad)` crea una cola acotada (un
//!   `tokio::sync::mpsc::channel(capacidad)`) y devuelve la recepción (hecha
//!   con `Recepcion::con_cola`) y el [`Buzon`] del que sacará los trabajos
//!   quien los atienda.
//! - `ofrece(trabajo)` mete el trabajo en la cola si cabe y devuelve
//!   `Ok(())`. Si no cabe, `Err(Rechazo::Llena(trabajo))`; si ya nadie recibe
//!   (el buzón se soltó), `Err(Rechazo::Cerrada(trabajo))`.
//! - `aceptadas()` y `rechazadas()` cuentan lo que pasó.
//!
//! Es `async` porque en un servidor la llamaría una tarea, pero tiene que
//! volver en el primer sondeo: **nunca espera** a que haya sitio. Y **nunca
//! tira nada en silencio**: lo aceptado llega al buzón y lo rechazado vuelve a
//! quien lo ofreció, con el motivo.
//!
//! La recepción usa su cola a través de [`Cola`], con los nombres de siempre
//! (`try_send`, `capacity`...): así las pruebas pueden meter otro productor
//! justo después de que mires cuánto sitio queda, como haría otro hilo. Lo
//! que mires, puede haber cambiado cuando actúes.

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
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

/// Lo que la recepción usa de su cola: lo mismo, y con los mismos nombres,
/// que el `mpsc::Sender` de Tokio, que es la cola de `Recepcion::nueva`. Las
/// pruebas usan además otra, que deja actuar a otro productor (o cerrar el
/// buzón) justo después de que mires `capacity()` o `is_closed()`: así abren
/// siempre, a propósito, el hueco entre mirar y actuar. Ya está hecho.
pub trait Cola<T> {
    /// Mete `trabajo` si cabe, sin esperar; si no, dice por qué y lo devuelve.
    fn try_send(&self, trabajo: T) -> Result<(), mpsc::error::TrySendError<T>>;
    /// Mete `trabajo`, esperando a que haya sitio.
    fn send(&self, trabajo: T) -> impl Future<Output = Result<(), mpsc::error::SendError<T>>>;
    /// Reserva un hueco, sin esperar.
    fn try_reserve(&self) -> Result<mpsc::Permit<'_, T>, mpsc::error::TrySendError<()>>;
    /// Huecos libres ahora.
    fn capacity(&self) -> usize;
    /// `true` si ya nadie recibe.
    fn is_closed(&self) -> bool;
}

impl<T> Cola<T> for mpsc::Sender<T> {
    fn try_send(&self, trabajo: T) -> Result<(), mpsc::error::TrySendError<T>> {
        mpsc::Sender::try_send(self, trabajo)
    }

    fn send(&self, trabajo: T) -> impl Future<Output = Result<(), mpsc::error::SendError<T>>> {
        mpsc::Sender::send(self, trabajo)
    }

    fn try_reserve(&self) -> Result<mpsc::Permit<'_, T>, mpsc::error::TrySendError<()>> {
        mpsc::Sender::try_reserve(self)
    }

    fn capacity(&self) -> usize {
        mpsc::Sender::capacity(self)
    }

    fn is_closed(&self) -> bool {
        mpsc::Sender::is_closed(self)
    }
}

/// La recepción: acepta mientras cabe, rechaza al momento cuando no. `C` es
/// su cola: la de Tokio, salvo en alguna prueba (mira [`Cola`]).
pub struct Recepcion<T, C = mpsc::Sender<T>> {
    tx: C,
    aceptadas: AtomicU64,
    rechazadas: AtomicU64,
    _trabajos: PhantomData<fn(T)>,
}

impl<T> Recepcion<T> {
    /// Una recepción con sitio para `capacidad` trabajos (al menos 1) y el
    /// buzón del que salen.
    pub fn nueva(capacidad: usize) -> (Recepcion<T>, Buzon<T>) {
        let _ = capacidad;
        todo!("crea un mpsc::channel(capacidad); con su emisor, Recepcion::con_cola(tx), y con su receptor, el Buzon")
    }
}

impl<T, C: Cola<T>> Recepcion<T, C> {
    /// Una recepción sobre la cola `tx`, sin nada aceptado ni rechazado. Ya
    /// está hecha: úsala en `nueva`.
    pub fn con_cola(tx: C) -> Recepcion<T, C> {
        Recepcion { tx, aceptadas: AtomicU64::new(0), rechazadas: AtomicU64::new(0), _trabajos: PhantomData }
    }

    /// Ofrece un trabajo: `Ok(())` si entró en la cola; si no, el rechazo con
    /// el trabajo dentro. Nunca espera.
    pub async fn ofrece(&self, trabajo: T) -> Result<(), Rechazo<T>> {
        let _ = (trabajo, &self.tx);
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
