//! `bloquea_en`, el `block_on` del capítulo 4, con una red de seguridad: si
//! un hilo trabajador muere por un pánico, quien espera no se queda colgado
//! para siempre, sino que entra en pánico con un mensaje claro.

use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

/// El waker de `bloquea_en`: marca una bandera y desaparca el hilo.
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

/// Vigila los hilos trabajadores de un ejecutor y a quienes esperan en
/// `bloquea_en`.
#[derive(Default)]
pub struct Vigia {
    roto: AtomicBool,
    esperando: Mutex<Vec<Thread>>,
}

impl Vigia {
    /// Sondea `future` en el hilo que llama hasta que termine, durmiendo
    /// entre sondeo y sondeo. No lo llames desde una tarea del mismo
    /// ejecutor: bloquearías su hilo trabajador.
    pub fn bloquea_en<F: Future>(&self, future: F) -> F::Output {
        let mut future = pin!(future);
        let despierta = Arc::new(DespiertaHilo { hilo: thread::current(), despierto: AtomicBool::new(false) });
        let waker = Waker::from(Arc::clone(&despierta));
        let mut cx = Context::from_waker(&waker);
        let _apuntado = Apuntado::en(self);
        loop {
            if let Poll::Ready(valor) = future.as_mut().poll(&mut cx) {
                return valor;
            }
            while !despierta.despierto.swap(false, Ordering::Acquire) {
                if self.roto.load(Ordering::Acquire) {
                    panic!("un hilo trabajador del ejecutor murió por un pánico (mira el mensaje de más arriba)");
                }
                thread::park();
            }
        }
    }

    /// Lo que cada hilo trabajador guarda mientras vive: si el hilo muere
    /// por un pánico, su `drop` avisa a quien espera en `bloquea_en`.
    pub fn guarda(&self) -> GuardaDeTrabajador<'_> {
        GuardaDeTrabajador { vigia: self }
    }

    /// ¿Ha muerto algún hilo trabajador por un pánico?
    pub fn roto(&self) -> bool {
        self.roto.load(Ordering::Acquire)
    }
}

/// Ver [`Vigia::guarda`].
pub struct GuardaDeTrabajador<'a> {
    vigia: &'a Vigia,
}

impl Drop for GuardaDeTrabajador<'_> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.vigia.roto.store(true, Ordering::Release);
            for hilo in self.vigia.esperando.lock().unwrap_or_else(|e| e.into_inner()).iter() {
                hilo.unpark();
            }
        }
    }
}

/// Apunta el hilo actual en la lista de quienes esperan, y lo borra al salir.
struct Apuntado<'a> {
    vigia: &'a Vigia,
}

impl<'a> Apuntado<'a> {
    fn en(vigia: &'a Vigia) -> Self {
        vigia.esperando.lock().unwrap().push(thread::current());
        Apuntado { vigia }
    }
}

impl Drop for Apuntado<'_> {
    fn drop(&mut self) {
        let yo = thread::current().id();
        let mut esperando = self.vigia.esperando.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = esperando.iter().position(|h| h.id() == yo) {
            esperando.swap_remove(i);
        }
    }
}
