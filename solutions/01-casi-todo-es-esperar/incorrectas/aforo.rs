//! Respuesta incorrecta plausible: cuentas en milisegundos. `as_millis()`
//! convierte 10 µs en 0 ms: la fracción sale 1.0 y el ritmo, infinito.

use std::time::Duration;

pub fn fraccion_de_espera(calculo: Duration, espera: Duration) -> f64 {
    let total = (calculo + espera).as_millis();
    if total == 0 {
        return 0.0;
    }
    espera.as_millis() as f64 / total as f64
}

pub fn por_segundo(por_peticion: Duration) -> u64 {
    let ms = por_peticion.as_millis() as u64;
    if ms == 0 {
        return u64::MAX;
    }
    1_000 / ms
}

pub fn hilos_necesarios(ritmo: u64, por_peticion: Duration) -> u64 {
    ritmo * por_peticion.as_millis() as u64 / 1_000
}
