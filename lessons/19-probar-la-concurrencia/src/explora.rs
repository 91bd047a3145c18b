//! Los exploradores, envueltos para contar: ejecuciones, tiempo, y el
//! mensaje y la bitácora de la primera ejecución que falla.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

use crate::bitacora;

/// Lo que devolvió una exploración.
#[derive(Debug, Clone)]
pub struct Resultado {
    /// Ejecuciones completas o no (la que falla también cuenta).
    pub ejecuciones: usize,
    pub duracion: Duration,
    /// El mensaje del fallo y la bitácora de esa ejecución.
    pub fallo: Option<(String, Vec<String>)>,
}

fn mensaje(carga: &(dyn Any + Send)) -> String {
    if let Some(s) = carga.downcast_ref::<String>() {
        s.clone()
    } else if let Some(s) = carga.downcast_ref::<&str>() {
        (*s).to_string()
    } else {
        "pánico sin mensaje de texto".to_string()
    }
}

/// Ejecuta `f` con los pánicos callados (los exploradores los usan para
/// informar de un fallo; aquí los recogemos nosotros).
fn en_silencio<R>(f: impl FnOnce() -> R) -> std::thread::Result<R> {
    let anterior = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let r = panic::catch_unwind(AssertUnwindSafe(f));
    panic::set_hook(anterior);
    r
}

fn recoge(inicio: Instant, r: std::thread::Result<()>) -> Resultado {
    let duracion = inicio.elapsed();
    let fallo = r.err().map(|carga| (mensaje(carga.as_ref()), bitacora::lineas()));
    Resultado { ejecuciones: bitacora::ejecuciones(), duracion, fallo }
}

// ANCHOR: loom
/// Recorre con loom todos los entrelazados de `modelo` (con a lo sumo
/// `cota` expulsiones por ejecución si se da) hasta acabar o hasta el
/// primer fallo. `tope` corta la exploración si se alarga demasiado.
pub fn con_loom(modelo: fn(), cota: Option<usize>, tope: Option<Duration>) -> Resultado {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = cota;
    builder.max_duration = tope;
    builder.checkpoint_interval = 1; // mira el tope en cada ejecución
    bitacora::cero();
    let inicio = Instant::now();
    let r = en_silencio(|| {
        builder.check(move || {
            bitacora::nueva_ejecucion();
            modelo();
        })
    });
    recoge(inicio, r)
}
// ANCHOR_END: loom

/// El planificador de shuttle que se usa.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Planificador {
    /// Cada paso, un hilo al azar.
    Azar,
    /// PCT con esta profundidad: prioridades al azar y `d - 1` cambios de prioridad.
    Pct(usize),
}

// ANCHOR: shuttle
/// Ejecuta `modelo` con shuttle hasta `iteraciones` veces, con la semilla
/// dada, y para en el primer fallo.
pub fn con_shuttle(modelo: fn(), planificador: Planificador, semilla: u64, iteraciones: usize) -> Resultado {
    let mut config = shuttle::Config::new();
    config.silence_warnings = true;
    config.failure_persistence = shuttle::FailurePersistence::Print;
    bitacora::cero();
    let inicio = Instant::now();
    let prueba = move || {
        bitacora::nueva_ejecucion();
        modelo();
    };
    let r = en_silencio(|| match planificador {
        Planificador::Azar => {
            let s = shuttle::scheduler::RandomScheduler::new_from_seed(semilla, iteraciones);
            shuttle::Runner::new(s, config).run(prueba);
        }
        Planificador::Pct(d) => {
            let s = shuttle::scheduler::PctScheduler::new_from_seed(semilla, d, iteraciones);
            shuttle::Runner::new(s, config).run(prueba);
        }
    });
    recoge(inicio, r)
}
// ANCHOR_END: shuttle

/// La planificación que shuttle imprime al fallar, para `shuttle::replay`.
pub fn planificacion(mensaje: &str) -> Option<String> {
    let tras = mensaje.split("failing schedule:").nth(1)?;
    let dentro = tras.split('"').nth(1)?;
    Some(dentro.trim().to_string())
}

/// Repite con `shuttle::replay` una planificación que falló.
pub fn repite_shuttle(modelo: fn(), planificacion: &str) -> Resultado {
    bitacora::cero();
    let inicio = Instant::now();
    let plan = planificacion.to_string();
    let r = en_silencio(move || {
        shuttle::replay(
            move || {
                bitacora::nueva_ejecucion();
                modelo();
            },
            &plan,
        )
    });
    recoge(inicio, r)
}
