//! Respuesta incorrecta plausible: comprueba el rango con `p <= 0.0 || p > 100.0`.
//! Parece lo mismo, pero NaN no es menor, ni igual, ni mayor que nada: pasa el
//! filtro, `NaN as u128` vale 0 y devuelve la muestra más pequeña en vez de `None`.
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
    if muestras.is_empty() || p <= 0.0 || p > 100.0 {
        return None; // esto también descarta NaN: toda comparación con NaN es falsa
    }
    let milesimas = (p * 1000.0).round() as u128;
    let n = muestras.len() as u128;
    let rango = (milesimas * n).div_ceil(100_000).max(1) as usize;
    let mut ordenadas = muestras.to_vec();
    ordenadas.sort_unstable();
    Some(ordenadas[rango - 1])
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
