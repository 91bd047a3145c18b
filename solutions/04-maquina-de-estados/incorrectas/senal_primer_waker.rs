//! Respuesta incorrecta plausible: guarda el waker, pero solo el del primer
//! sondeo. Si la espera cambia de tarea, `activa` despierta a la tarea vieja
//! y la nueva se queda esperando.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

#[derive(Default)]
struct Estado {
    activada: bool,
    waker: Option<Waker>,
}

#[derive(Clone)]
pub struct Activador {
    compartido: Arc<Mutex<Estado>>,
}

pub struct Espera {
    compartido: Arc<Mutex<Estado>>,
}

pub fn senal() -> (Activador, Espera) {
    let compartido = Arc::new(Mutex::new(Estado::default()));
    (Activador { compartido: Arc::clone(&compartido) }, Espera { compartido })
}

impl Activador {
    pub fn activa(&self) {
        let waker = {
            let mut estado = self.compartido.lock().unwrap();
            estado.activada = true;
            estado.waker.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

impl Future for Espera {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut estado = self.compartido.lock().unwrap();
        if estado.activada {
            return Poll::Ready(());
        }
        if estado.waker.is_none() {
            estado.waker = Some(cx.waker().clone());
        }
        Poll::Pending
    }
}
