//! Respuesta incorrecta plausible: guarda el waker del primer sondeo «para
//! no clonarlo cada vez» y despierta siempre a ese. Mientras la `Cuenta` no
//! cambie de tarea funciona; si la sondea otra tarea, despierta a la vieja y
//! la nueva se queda esperando.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

/// Devuelve `Pending` `n` veces y después `Ready(n)`.
pub struct Cuenta {
    /// Cuántas veces queda por devolver `Pending`.
    restantes: u32,
    /// Cuántas veces ha devuelto `Pending` ya.
    pendientes: u32,
    /// El waker del primer sondeo.
    waker: Option<Waker>,
}

impl Cuenta {
    pub fn new(n: u32) -> Self {
        Cuenta { restantes: n, pendientes: 0, waker: None }
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
        let waker = self.waker.get_or_insert_with(|| cx.waker().clone());
        waker.wake_by_ref();
        Poll::Pending
    }
}
