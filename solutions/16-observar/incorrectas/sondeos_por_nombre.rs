// Respuesta incorrecta plausible: una medida por nombre de tramo. Si ya hay
// una medida con ese nombre, el tramo nuevo suma en ella: dos peticiones
// distintas (o dos tareas con la misma función) salen mezcladas en una.

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

use tokio::time::Instant;
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
#[derive(Clone, Default)]
pub struct ContadorDeSondeos {
    medidas: Arc<Mutex<Vec<Medida>>>,
}

/// Lo que la capa guarda en cada tramo: dónde está su medida y desde cuándo está dentro.
struct Cuenta {
    indice: usize,
    dentro_desde: Option<Instant>,
}

impl ContadorDeSondeos {
    pub fn new() -> Self {
        Self::default()
    }

    /// Una medida por tramo creado, en orden de creación.
    pub fn informe(&self) -> Vec<Medida> {
        self.medidas.lock().unwrap().clone()
    }
}

impl<S> Layer<S> for ContadorDeSondeos
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, atributos: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let mut medidas = self.medidas.lock().unwrap();
        let nombre = atributos.metadata().name();
        let indice = match medidas.iter().position(|m| m.nombre == nombre) {
            Some(i) => i,
            None => {
                medidas.push(Medida { nombre, sondeos: 0, ocupado: Duration::ZERO });
                medidas.len() - 1
            }
        };
        let cuenta = Cuenta { indice, dentro_desde: None };
        if let Some(tramo) = ctx.span(id) {
            tramo.extensions_mut().insert(cuenta);
        }
    }

    fn on_enter(&self, id: &Id, ctx: Context<'_, S>) {
        let Some(tramo) = ctx.span(id) else { return };
        let mut extensiones = tramo.extensions_mut();
        let Some(cuenta) = extensiones.get_mut::<Cuenta>() else { return };
        cuenta.dentro_desde = Some(Instant::now());
        self.medidas.lock().unwrap()[cuenta.indice].sondeos += 1;
    }

    fn on_exit(&self, id: &Id, ctx: Context<'_, S>) {
        let Some(tramo) = ctx.span(id) else { return };
        let mut extensiones = tramo.extensions_mut();
        let Some(cuenta) = extensiones.get_mut::<Cuenta>() else { return };
        if let Some(desde) = cuenta.dentro_desde.take() {
            self.medidas.lock().unwrap()[cuenta.indice].ocupado += desde.elapsed();
        }
    }
}
