//! Respuesta incorrecta plausible: espera activa. Un waker que no hace nada
//! y un bucle que sondea sin parar. Devuelve el valor correcto, pero quema
//! un núcleo mientras espera y sondea miles de veces sin que nadie despierte
//! al future.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(valor) = future.as_mut().poll(&mut cx) {
            return valor;
        }
        std::hint::spin_loop();
    }
}
