//! Ejercicio 1: percentiles bien calculados.
//!
//! Para comparar diseños, la media de la latencia no sirve: un servicio que
//! responde casi siempre en 1 ms y a veces en 2 s tiene una media que no
//! describe a nadie. Se usan percentiles: el p99 es la latencia que solo
//! supera el 1 % de las peticiones.
//!
//! `percentil(muestras, p)` calcula el percentil `p` (mayor que 0, hasta 100)
//! por **rango más cercano**: ordena las muestras y toma la que ocupa la
//! posición `ceil(p / 100 * n)`, contando desde 1 (y al menos la primera).
//! Es siempre una de las muestras, nunca un valor interpolado. Sin muestras,
//! o con un `p` fuera de rango (cero, negativo, más de 100, NaN), devuelve
//! `None`. No cambies el orden de `muestras`: es de quien llama.
//!
//! Cuidado con la coma flotante: `7.0 / 100.0 * 100.0` da
//! 7,000000000000001, y su `ceil` es 8. La regla de este ejercicio es
//! exacta: `p` se redondea a la milésima más cercana (`(p * 1000.0).round()`)
//! y la posición se calcula con enteros, `ceil(milesimas * n / 100 000)`.
//! Así el p7 de 100 muestras es la séptima, como en el papel.
//!
//! `resumen` da los tres números que imprime una lección: p50, p99 y el
//! máximo.

use std::time::Duration;

/// El percentil `p` de las muestras, por rango más cercano.
pub fn percentil(muestras: &[Duration], p: f64) -> Option<Duration> {
    let _ = (muestras, p);
    todo!("ordena una copia y toma la muestra de la posición ceil(milesimas * n / 100 000), contando desde 1")
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
    let _ = muestras;
    todo!("usa percentil con 50, 99 y 100")
}
