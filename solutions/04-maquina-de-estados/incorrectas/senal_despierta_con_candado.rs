//! Respuesta incorrecta plausible: `activa` despierta al waker sin soltar
//! antes el candado. Con ejecutores que solo apuntan la tarea para luego
//! parece ir bien; si quien despierta quiere sondear la espera en ese
//! momento (otro hilo, otro trabajador), se encuentra el candado tomado.

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
        let mut estado = self.compartido.lock().unwrap();
        estado.activada = true;
        if let Some(waker) = estado.waker.take() {
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
        // El waker de ESTE sondeo; si ya teníamos uno que despierta a la misma
        // tarea, no hace falta clonarlo otra vez.
        match &estado.waker {
            Some(guardado) if guardado.will_wake(cx.waker()) => {}
            _ => estado.waker = Some(cx.waker().clone()),
        }
        Poll::Pending
    }
}
