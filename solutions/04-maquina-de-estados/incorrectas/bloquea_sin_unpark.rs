//! Respuesta incorrecta plausible: duerme con `park`, pero el waker no
//! desaparca el hilo (aquí, un waker que no hace nada). Con un future que ya
//! está listo funciona; con uno que espera, el hilo duerme para siempre.

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
        std::thread::park();
    }
}
