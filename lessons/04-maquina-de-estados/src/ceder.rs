//! `Ceder`: el *future* escrito a mano más pequeño que hace algo útil.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

// ANCHOR: ceder
/// Devuelve `Pending` una vez y `Ready(())` la siguiente. Antes de devolver
/// `Pending` se despierta a sí mismo: si no, nadie volvería a sondearlo.
#[derive(Debug, Default)]
pub struct Ceder {
    cedido: bool,
}

/// Cede el control una vez al ejecutor (como `tokio::task::yield_now`, pero
/// sirve con cualquier ejecutor).
pub fn ceder() -> Ceder {
    Ceder { cedido: false }
}

impl Future for Ceder {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.cedido {
            return Poll::Ready(());
        }
        self.cedido = true;
        cx.waker().wake_by_ref(); // «vuelve a sondearme en cuanto puedas»
        Poll::Pending
    }
}
// ANCHOR_END: ceder
