//! Respuesta incorrecta plausible: toma la posición `p / 100 * n` truncada,
//! como índice desde 0. Con 100 muestras, el p99 sale el máximo.
//!
//! Ejercicio 1: percentiles bien calculados.
//!
//! Para comparar diseños, la media de la latencia no sirve: un servicio que
//! responde casi siempre en 1 ms y a veces en 2 s tiene una media que no
//! describe a nadie. Se usan percentiles: el p99 es la latencia que solo
//! supera el 1 % de las peticiones.
//!
//! `percentil(muestras, p)` calcula el percentil `p` (mayor que 0, hasta 100)
//! por **rango más cercano**: ordena las muestras y toma la que ocupa la
//! posición `ceil(p / 100 * n)`, contando desde 1. Es siempre una de las
//! muestras, nunca un valor interpolado. Sin muestras, o con un `p` fuera de
//! rango, devuelve `None`. No cambies el orden de `muestras`: es de quien
//! llama.
//!
//! `resumen` da los tres números que imprime una lección: p50, p99 y el
//! máximo.

use std::time::Duration;

/// El percentil `p` de las muestras, por rango más cercano.
pub fn percentil(muestras: &[Duration], p: f64) -> Option<Duration> {
    if muestras.is_empty() || !(p > 0.0 && p <= 100.0) {
        return None;
    }
    let mut ordenadas = muestras.to_vec();
    ordenadas.sort_unstable();
    let indice = (p / 100.0 * ordenadas.len() as f64) as usize;
    Some(ordenadas[indice.min(ordenadas.len() - 1)])
}

/// Los tres números de siempre.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resumen {
    pub p50: Duration,
    pub p99: Duration,
    pub maximo: Duration,
}

/// p50, p99 y máximo de las muestras; `None` si no hay ninguna.
pub fn resumen(muestras: &[Duration]) -> Option<Resumen> {
    Some(Resumen {
        p50: percentil(muestras, 50.0)?,
        p99: percentil(muestras, 99.0)?,
        maximo: percentil(muestras, 100.0)?,
    })
}
