//! Respuesta incorrecta plausible: `poll` mira la bandera con un candado y
//! guarda el waker con otro. Entre las dos cosas el candado está libre: si
//! `activa` llega justo ahí, no encuentra waker que despertar, y el waker que
//! se guarda después ya no lo despertará nadie (un despertar perdido).

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

/// Lo que comparten los dos extremos.
#[derive(Default)]
struct Estado {
    activada: bool,
    /// El waker del último sondeo que devolvió `Pending`.
    waker: Option<Waker>,
}

/// El extremo que activa la señal. Se puede clonar y mandar a otro hilo.
#[derive(Clone)]
pub struct Activador {
    compartido: Arc<Mutex<Estado>>,
}

/// El extremo que espera: un *future* que termina cuando se activa la señal.
pub struct Espera {
    compartido: Arc<Mutex<Estado>>,
}

/// Crea una señal sin activar.
pub fn senal() -> (Activador, Espera) {
    let compartido = Arc::new(Mutex::new(Estado::default()));
    (Activador { compartido: Arc::clone(&compartido) }, Espera { compartido })
}

impl Activador {
    /// Activa la señal. Activarla otra vez no hace nada.
    pub fn activa(&self) {
        let waker = {
            let mut estado = self.compartido.lock().unwrap();
            estado.activada = true;
            estado.waker.take()
        }; // suelta el candado antes de despertar: wake() puede sondear enseguida
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

impl Future for Espera {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.compartido.lock().unwrap().activada {
            return Poll::Ready(());
        }
        self.compartido.lock().unwrap().waker = Some(cx.waker().clone());
        Poll::Pending
    }
}
