//! Respuesta incorrecta plausible: duerme con `park_timeout` de 1 ms «por
//! si se pierde un unpark». El waker es bueno, pero el hilo se despierta solo
//! cada milisegundo y vuelve a sondear: si el future tarda 30 ms en estar
//! listo, lo sondea unas 30 veces sin que nadie lo haya despertado.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};
use std::time::Duration;

/// Despertar = marcar la bandera y desaparcar el hilo que espera.
struct DespiertaHilo {
    hilo: Thread,
    despierto: AtomicBool,
}

impl Wake for DespiertaHilo {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.despierto.store(true, Ordering::Release);
        self.hilo.unpark();
    }
}

/// Sondea `future` hasta que termine, durmiendo el hilo entre sondeos.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let despierta = Arc::new(DespiertaHilo { hilo: thread::current(), despierto: AtomicBool::new(false) });
    let waker = Waker::from(Arc::clone(&despierta));
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(valor) = future.as_mut().poll(&mut cx) {
            return valor;
        }
        despierta.despierto.store(false, Ordering::Release);
        thread::park_timeout(Duration::from_millis(1));
    }
}
