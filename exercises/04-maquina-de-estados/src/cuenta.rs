//! Ejercicio 1: un *future* escrito a mano.
//!
//! `Cuenta::new(n)` es un *future* que, al sondearlo, devuelve
//! `Poll::Pending` las primeras `n` veces y `Poll::Ready(n)` la siguiente.
//!
//! La regla que no puedes saltarte: quien devuelve `Pending` se compromete a
//! que alguien llame a `wake()` cuando valga la pena volver a sondearlo. Aquí
//! no hay nada externo que esperar, así que ese alguien eres tú: despierta a
//! tu propia tarea antes de devolver `Pending`.

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

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
        let _ = (self.restantes, self.pendientes, cx);
        todo!("si quedan, descuenta uno, despierta con cx.waker() y devuelve Pending; si no, Ready")
    }
}
