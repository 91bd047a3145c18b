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

/// Lo que la capa guarda en cada tramo: dónde está su medida, cuántas
/// entradas tiene abiertas y desde cuándo tiene alguna.
struct Cuenta {
    indice: usize,
    abiertas: usize,
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
        medidas.push(Medida { nombre: atributos.metadata().name(), sondeos: 0, ocupado: Duration::ZERO });
        let cuenta = Cuenta { indice: medidas.len() - 1, abiertas: 0, dentro_desde: None };
        if let Some(tramo) = ctx.span(id) {
            tramo.extensions_mut().insert(cuenta);
        }
    }

    fn on_enter(&self, id: &Id, ctx: Context<'_, S>) {
        let Some(tramo) = ctx.span(id) else { return };
        let mut extensiones = tramo.extensions_mut();
        let Some(cuenta) = extensiones.get_mut::<Cuenta>() else { return };
        // Si ya había otra entrada abierta (otro hilo, o el mismo tramo dentro
        // de sí), el reloj ya corre: no se vuelve a poner en marcha.
        if cuenta.abiertas == 0 {
            cuenta.dentro_desde = Some(Instant::now());
        }
        cuenta.abiertas += 1;
        self.medidas.lock().unwrap()[cuenta.indice].sondeos += 1;
    }

    fn on_exit(&self, id: &Id, ctx: Context<'_, S>) {
        let Some(tramo) = ctx.span(id) else { return };
        let mut extensiones = tramo.extensions_mut();
        let Some(cuenta) = extensiones.get_mut::<Cuenta>() else { return };
        cuenta.abiertas = cuenta.abiertas.saturating_sub(1);
        // Se para el reloj al cerrar la última entrada abierta.
        if cuenta.abiertas == 0
            && let Some(desde) = cuenta.dentro_desde.take()
        {
            self.medidas.lock().unwrap()[cuenta.indice].ocupado += desde.elapsed();
        }
    }
}
