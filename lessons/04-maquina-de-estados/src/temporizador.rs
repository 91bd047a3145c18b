//! `Temporizador`: un *future* que guarda el `Waker` y al que despierta otro hilo.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::thread;
use std::time::Duration;

use crate::traza;

// ANCHOR: temporizador
/// Lo que comparten el future y el hilo que cuenta el tiempo.
#[derive(Default)]
struct Estado {
    cumplido: bool,
    waker: Option<Waker>,
}

/// Termina cuando pasa `duracion` desde el primer sondeo. Cuenta el tiempo
/// un hilo aparte (un *runtime* de verdad no lanza un hilo por temporizador).
pub struct Temporizador {
    duracion: Duration,
    compartido: Arc<Mutex<Estado>>,
    arrancado: bool,
}

impl Temporizador {
    pub fn new(duracion: Duration) -> Self {
        Temporizador { duracion, compartido: Arc::default(), arrancado: false }
    }
}

impl Future for Temporizador {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        {
            let mut estado = self.compartido.lock().unwrap();
            if estado.cumplido {
                return Poll::Ready(());
            }
            // Guarda el waker de quien sondea AHORA. Si ya hay uno que despierta
            // a la misma tarea, no hace falta clonarlo otra vez.
            match &estado.waker {
                Some(guardado) if guardado.will_wake(cx.waker()) => {}
                _ => estado.waker = Some(cx.waker().clone()),
            }
        } // suelta el candado antes de arrancar el hilo
        if !self.arrancado {
            // Perezoso: nada empieza a contar hasta el primer sondeo.
            self.arrancado = true;
            let compartido = Arc::clone(&self.compartido);
            let duracion = self.duracion;
            thread::spawn(move || {
                thread::sleep(duracion);
                let waker = {
                    let mut estado = compartido.lock().unwrap();
                    estado.cumplido = true;
                    estado.waker.take()
                };
                traza!("  [hilo del temporizador] plazo cumplido: wake()");
                if let Some(waker) = waker {
                    waker.wake();
                }
            });
        }
        Poll::Pending
    }
}
// ANCHOR_END: temporizador

#[cfg(test)]
mod pruebas {
    use super::*;
    use crate::ejecutor::block_on;

    #[test]
    fn termina_cuando_el_hilo_lo_despierta() {
        // Si el future no guardara el waker, `block_on` dormiría para siempre.
        block_on(Temporizador::new(Duration::from_millis(1)));
    }
}
