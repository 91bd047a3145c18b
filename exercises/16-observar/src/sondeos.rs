//! Ejercicio 1: una capa que cuenta sondeos y tiempo ocupado por tramo.
//!
//! Cuando una tarea lleva un tramo (*span*) con `.instrument(tramo)` o
//! `#[instrument]`, cada sondeo de su *future* entra en el tramo (`on_enter`)
//! y sale de él al devolver (`on_exit`). Escribe una capa de
//! `tracing-subscriber` que, para cada tramo, cuente:
//!
//! - `sondeos`: cuántas veces se entró en él (cada sondeo es una entrada; al
//!   soltar el *future*, `Instrumented` entra una vez más para soltarlo);
//! - `ocupado`: el tiempo pasado **dentro**, sumando cada entrada hasta su
//!   salida (el tiempo entre una salida y la entrada siguiente no cuenta).
//!
//! Un tramo puede tener varias entradas abiertas a la vez: dos hilos que lo
//! sondean al mismo tiempo, o un tramo que se vuelve a entrar a sí mismo, y
//! sus salidas no llegan por fuerza en orden inverso. Cada entrada es un
//! sondeo, y el tiempo ocupado corre mientras haya al menos una abierta: ese
//! rato cuenta una sola vez, no una por entrada.
//!
//! `informe()` devuelve una `Medida` por tramo creado, en el orden en que se
//! crearon: también los que ya se cerraron y los que nunca se sondearon.
//! Dos tramos con el mismo nombre son dos medidas. Cada tramo lleva su
//! propia cuenta aunque estén anidados (dentro del tramo de la petición, el
//! de la consulta).
//!
//! Mide con `tokio::time::Instant::now()`: con el reloj en pausa de las
//! pruebas, el tiempo solo avanza cuando ellas lo dicen.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tracing::Subscriber;
use tracing::span::{Attributes, Id};
use tracing_subscriber::layer::{Context, Layer};
use tracing_subscriber::registry::LookupSpan;

/// Lo medido de un tramo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Medida {
    /// El nombre del tramo (`info_span!("nombre")`, o el de la función con `#[instrument]`).
    pub nombre: &'static str,
    /// Cuántas veces se entró en el tramo.
    pub sondeos: u64,
    /// El tiempo total pasado dentro del tramo.
    pub ocupado: Duration,
}

/// La capa. Se clona para quedarse con una copia que lee el informe.
/// Añade los campos que necesites (compartidos entre las copias).
#[derive(Clone, Default)]
pub struct ContadorDeSondeos {
    medidas: Arc<Mutex<Vec<Medida>>>,
}

impl ContadorDeSondeos {
    pub fn new() -> Self {
        Self::default()
    }

    /// Una medida por tramo creado, en orden de creación.
    pub fn informe(&self) -> Vec<Medida> {
        let _ = &self.medidas;
        todo!("todavía sin resolver: devuelve una copia de las medidas")
    }
}

impl<S> Layer<S> for ContadorDeSondeos
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, atributos: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let _ = (atributos, id, ctx, Duration::ZERO);
        todo!("todavía sin resolver: apunta una medida nueva y guarda en las extensiones del tramo dónde está")
    }

    fn on_enter(&self, id: &Id, ctx: Context<'_, S>) {
        let _ = (id, ctx);
        todo!("todavía sin resolver: un sondeo más; apunta desde cuándo está dentro (tokio::time::Instant::now())")
    }

    fn on_exit(&self, id: &Id, ctx: Context<'_, S>) {
        let _ = (id, ctx);
        todo!("todavía sin resolver: suma al tiempo ocupado lo que ha estado dentro")
    }
}
