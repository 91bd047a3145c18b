//! Respuesta incorrecta plausible: «Pending quiere decir "vuelve luego"», así
//! que devuelve `Pending` sin despertar a nadie. Con un sondeo a mano parece
//! que funciona; en un ejecutor de verdad, la tarea no vuelve a sondearse.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

pub struct Cuenta {
    restantes: u32,
    pendientes: u32,
}

impl Cuenta {
    pub fn new(n: u32) -> Self {
        Cuenta { restantes: n, pendientes: 0 }
    }
}

impl Future for Cuenta {
    type Output = u32;

    fn poll(mut self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<u32> {
        if self.restantes == 0 {
            return Poll::Ready(self.pendientes);
        }
        self.restantes -= 1;
        self.pendientes += 1;
        Poll::Pending
    }
}
