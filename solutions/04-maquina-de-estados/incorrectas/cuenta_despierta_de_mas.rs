//! Respuesta incorrecta plausible: despierta a la tarea en cada sondeo,
//! también en el que da `Ready` («por si acaso»). El resultado es el mismo,
//! pero cada despertar de más pide al ejecutor un sondeo que no sirve para
//! nada.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// Devuelve `Pending` `n` veces y después `Ready(n)`.
pub struct Cuenta {
    /// Cuántas veces queda por devolver `Pending`.
    restantes: u32,
    /// Cuántas veces ha devuelto `Pending` ya.
    pendientes: u32,
}

impl Cuenta {
    pub fn new(n: u32) -> Self {
        Cuenta { restantes: n, pendientes: 0 }
    }
}

impl Future for Cuenta {
    type Output = u32;

    // `Cuenta` solo tiene enteros: es `Unpin`, y `Pin<&mut Self>` se usa
    // como un `&mut Self` normal.
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
        cx.waker().wake_by_ref();
        if self.restantes == 0 {
            return Poll::Ready(self.pendientes);
        }
        self.restantes -= 1;
        self.pendientes += 1;
        Poll::Pending
    }
}
