//! Ejercicio 1 (solución): antes de devolver `Pending`, la `Cuenta` se
//! despierta a sí misma; así el ejecutor sabe que debe volver a sondearla.

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
        if self.restantes == 0 {
            return Poll::Ready(self.pendientes);
        }
        self.restantes -= 1;
        self.pendientes += 1;
        cx.waker().wake_by_ref(); // sin esto, nadie volvería a sondearnos
        Poll::Pending
    }
}
