//! Respuesta incorrecta plausible: la espera devuelve `Pending` sin guardar
//! el waker, y `activa` solo marca la bandera. Si alguien vuelve a sondear,
//! verá la señal; pero nadie vuelve a sondear si no lo despiertan.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

#[derive(Default)]
struct Estado {
    activada: bool,
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
        self.compartido.lock().unwrap().activada = true;
    }
}

impl Future for Espera {
    type Output = ();

    fn poll(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<()> {
        if self.compartido.lock().unwrap().activada { Poll::Ready(()) } else { Poll::Pending }
    }
}
