//! Ejercicio 3: una señal de un solo uso.
//!
//! `senal()` devuelve dos extremos: un `Activador` y una `Espera`. La
//! `Espera` es un *future* que termina cuando alguien llama a
//! `Activador::activa`, desde la tarea o el hilo que sea.
//!
//! - Si la señal ya está activada, `Espera` devuelve `Ready(())`.
//! - Si no, devuelve `Pending`... y ahí está el ejercicio: cuando llegue
//!   `activa()`, la tarea que espera tiene que enterarse. Nadie vuelve a
//!   sondear un *future* que devolvió `Pending` si no lo despiertan.
//! - Si la `Espera` se sondea varias veces (quizá desde tareas distintas),
//!   hay que despertar a la del último sondeo.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

/// Lo que comparten los dos extremos.
#[derive(Default)]
struct Estado {
    activada: bool,
    // Añade aquí lo que necesites para despertar a quien espera.
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
        let _ = &self.compartido;
        todo!("marca la señal como activada y despierta a quien espera")
    }
}

impl Future for Espera {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let estado = self.compartido.lock().unwrap();
        let _ = (estado.activada, cx);
        todo!("si está activada, Ready; si no, guarda cx.waker() y devuelve Pending")
    }
}
