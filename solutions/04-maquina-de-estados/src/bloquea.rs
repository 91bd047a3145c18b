//! Ejercicio 2 (solución): un `Waker` hecho con `Wake` + `Arc` que desaparca
//! el hilo de `block_on`; entre sondeos, el hilo duerme con `park`.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

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
        // Si el wake() llegó antes de dormir, `unpark` dejó una ficha y `park`
        // vuelve enseguida. Si `park` vuelve sin motivo, la bandera lo delata.
        while !despierta.despierto.swap(false, Ordering::Acquire) {
            thread::park();
        }
    }
}
