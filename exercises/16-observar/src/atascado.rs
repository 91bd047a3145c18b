//! Ejercicio 2: encontrar el trabajador atascado solo con las métricas.
//!
//! Una tarea que hace algo bloqueante (un `std::thread::sleep`, un cálculo
//! largo, un candado de `std` que no llega) deja a su trabajador sin volver
//! al planificador. Las métricas estables de Tokio 1.54 lo delatan, pero no
//! como podrías creer: el tiempo ocupado de un trabajador se publica cuando
//! se aparca o hace mantenimiento, así que, mientras dura el bloqueo, **no
//! sube**. Lo que sí se ve es `worker_park_unpark_count`: sube al aparcarse
//! y al despertar, de modo que un valor impar es un trabajador aparcado
//! (dormido, sin trabajo) y uno par, un trabajador despierto.
//!
//! `atascados` recibe muestras tomadas cada cierto tiempo (no siempre el
//! mismo) y devuelve, en orden creciente, los trabajadores que **al final**
//! de las muestras llevan al menos `umbral` despiertos (contador par) sin que
//! su contador cambie. El tiempo se cuenta con los instantes de las muestras:
//! desde la primera muestra con el valor que tiene la última hasta la última.
//! Un trabajador que estuvo quieto un rato y luego se movió ya no está
//! atascado. Con menos de dos muestras no hay nada que decir.

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
/// despiertos y sin moverse.
pub fn atascados(muestras: &[Muestra], umbral: Duration) -> Vec<usize> {
    let _ = (muestras, umbral);
    todo!("todavía sin resolver: para cada trabajador, mira su contador en la última muestra y hacia atrás")
}
