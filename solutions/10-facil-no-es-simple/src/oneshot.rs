//! El `oneshot` de Tokio, con una costura para las pruebas. Ya está hecho: no
//! lo cambies.
//!
//! Tiene los mismos nombres que `tokio::sync::oneshot` (`channel`, `Sender`
//! con `is_closed` y `send`, un `Receiver` que se espera con `.await`) y hace
//! lo mismo, porque por dentro es ese. Solo añade una cosa: una prueba puede
//! pedir que el hilo que acaba de mirar `is_closed()` se pare justo después,
//! antes de hacer nada más. Así abre siempre, a propósito, el hueco que hay
//! entre mirar si alguien espera y enviarle el resultado; con hilos de
//! verdad, ese hueco dura nanosegundos y solo se ve por casualidad.
//!
//! El crate de la solución y el del ejercicio usan este mismo archivo.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

pub use tokio::sync::oneshot::error;

/// Un canal de un solo mensaje, como `tokio::sync::oneshot::channel`.
pub fn channel<T>() -> (Sender<T>, Receiver<T>) {
    let (tx, rx) = tokio::sync::oneshot::channel();
    (Sender(tx), Receiver(rx))
}

/// El lado que envía.
#[derive(Debug)]
pub struct Sender<T>(tokio::sync::oneshot::Sender<T>);

impl<T> Sender<T> {
    /// `true` si el `Receiver` ya no existe: nadie recibirá lo que envíes.
    pub fn is_closed(&self) -> bool {
        let cerrado = self.0.is_closed();
        despues_de_mirar();
        cerrado
    }

    /// Envía `valor`. Si el `Receiver` ya no existe, lo devuelve en el `Err`.
    pub fn send(self, valor: T) -> Result<(), T> {
        self.0.send(valor)
    }
}

/// El lado que recibe: se espera con `.await`.
#[derive(Debug)]
pub struct Receiver<T>(tokio::sync::oneshot::Receiver<T>);

impl<T> Receiver<T> {
    /// El valor, si ya llegó, sin esperar.
    pub fn try_recv(&mut self) -> Result<T, error::TryRecvError> {
        self.0.try_recv()
    }

    /// Cierra el canal sin soltar el `Receiver`: desde ahora, `is_closed` es `true`.
    pub fn close(&mut self) {
        self.0.close()
    }
}

impl<T> Future for Receiver<T> {
    type Output = Result<T, error::RecvError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0).poll(cx)
    }
}

thread_local! {
    /// Lo que hay que hacer en este hilo después de cada `is_closed`.
    static COSTURA: RefCell<Option<Box<dyn FnMut()>>> = const { RefCell::new(None) };
}

/// Para las pruebas: desde ahora, en el hilo que llama, cada `is_closed`
/// llama a `costura` después de mirar y antes de devolver lo que vio.
pub fn tras_cada_is_closed(costura: impl FnMut() + 'static) {
    COSTURA.with(|c| *c.borrow_mut() = Some(Box::new(costura)));
}

fn despues_de_mirar() {
    // Se saca mientras corre: así la costura puede volver a mirar sin chocar.
    let costura = COSTURA.with(|c| c.borrow_mut().take());
    if let Some(mut costura) = costura {
        costura();
        COSTURA.with(|c| {
            let mut c = c.borrow_mut();
            if c.is_none() {
                *c = Some(costura);
            }
        });
    }
}
