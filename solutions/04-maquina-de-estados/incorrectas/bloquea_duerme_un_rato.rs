//! Respuesta incorrecta plausible: un waker que no hace nada y, tras cada
//! `Pending`, `thread::sleep` de 1 ms antes de volver a sondear. No quema un
//! núcleo entero, pero sigue siendo sondear a ciegas: llega tarde a cada
//! despertar y sondea decenas de veces un future que nadie ha despertado.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::thread;
use std::time::Duration;

/// Sondea `future` hasta que termine, durmiendo el hilo entre sondeos.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(valor) = future.as_mut().poll(&mut cx) {
            return valor;
        }
        thread::sleep(Duration::from_millis(1));
    }
}
