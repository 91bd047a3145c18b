//! Ejercicio 2: encontrar el trabajador atascado solo con las métricas.
//!
//! Una tarea que hace algo bloqueante (un `std::thread::sleep`, un cálculo
//! largo, un candado de `std` que no llega) deja a su trabajador sin volver
//! al planificador. Las métricas estables de Tokio 1.54 lo delatan si miras
//! dos a la vez:
//!
//! - `worker_park_unpark_count` sube al aparcarse y al despertar: un valor
//!   impar es un trabajador aparcado (dormido, sin trabajo) y uno par, un
//!   trabajador despierto. Pero un trabajador saturado y sano, que siempre
//!   encuentra trabajo, tampoco se aparca: su contador se queda quieto igual
//!   que el del bloqueado.
//! - `worker_total_busy_duration` se publica al aparcarse y en cada tic de
//!   mantenimiento, que el trabajador hace cada 61 tareas que sondea (el
//!   `event_interval` por defecto). Al saturado le sube; al bloqueado, que
//!   no vuelve al planificador, no.
//!
//! `atascados` recibe muestras tomadas cada cierto tiempo (no siempre el
//! mismo) y devuelve, en orden creciente, los trabajadores que **al final**
//! de las muestras llevan al menos `umbral` despiertos (contador par) sin que
//! cambien ni su contador ni su tiempo ocupado. El tiempo se cuenta con los
//! instantes de las muestras: desde la primera muestra con los dos valores
//! que tiene la última hasta la última. Un trabajador que estuvo quieto un
//! rato y luego se movió ya no está atascado. Con menos de dos muestras no
//! hay nada que decir.

use std::time::Duration;

/// Una muestra de las métricas de un *runtime*.
#[derive(Debug, Clone, PartialEq)]
pub struct Muestra {
    /// Cuándo se tomó.
    pub instante: Duration,
    /// Por trabajador: `worker_total_busy_duration`.
    pub ocupado: Vec<Duration>,
    /// Por trabajador: `worker_park_unpark_count`.
    pub aparca: Vec<u64>,
}

/// Toma una muestra de las métricas de un *runtime* (ya resuelta: úsala).
pub fn muestra(metricas: &tokio::runtime::RuntimeMetrics, instante: Duration) -> Muestra {
    let n = metricas.num_workers();
    Muestra {
        instante,
        ocupado: (0..n).map(|w| metricas.worker_total_busy_duration(w)).collect(),
        aparca: (0..n).map(|w| metricas.worker_park_unpark_count(w)).collect(),
    }
}

/// Los trabajadores que, al final de las muestras, llevan al menos `umbral`
/// despiertos y sin moverse: ni su contador ni su tiempo ocupado.
pub fn atascados(muestras: &[Muestra], umbral: Duration) -> Vec<usize> {
    let _ = (muestras, umbral);
    todo!("todavía sin resolver: para cada trabajador, mira su contador en la última muestra y hacia atrás")
}
