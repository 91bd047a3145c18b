//! Respuesta incorrecta plausible: el ritmo y los hilos en coma flotante,
//! con `as_secs_f64()`. Casi siempre acierta, pero se equivoca justo en los
//! casos exactos: 1.0 / 8e-9 da 124 999 999,99... y, al truncar, se pierde
//! una petición; 300 × 0.07 da 21,000000000000004 y `ceil` pide un hilo de más.

use std::time::Duration;

/// Qué fracción del tiempo de una petición es espera, entre 0.0 y 1.0.
/// Si la petición no dura nada, 0.0.
pub fn fraccion_de_espera(calculo: Duration, espera: Duration) -> f64 {
    // En u128 no desborda; `calculo + espera` con `Duration` sí podría.
    let total = calculo.as_nanos() + espera.as_nanos();
    if total == 0 {
        return 0.0;
    }
    espera.as_nanos() as f64 / total as f64
}

/// Cuántas peticiones completas caben en un segundo si un hilo las atiende
/// una detrás de otra y cada una le ocupa `por_peticion`.
pub fn por_segundo(por_peticion: Duration) -> u64 {
    if por_peticion.is_zero() {
        return u64::MAX;
    }
    (1.0 / por_peticion.as_secs_f64()) as u64
}

/// Cuántos hilos bloqueantes hacen falta para atender `ritmo` peticiones
/// por segundo si cada una tiene su hilo ocupado durante `por_peticion`.
pub fn hilos_necesarios(ritmo: u64, por_peticion: Duration) -> u64 {
    (ritmo as f64 * por_peticion.as_secs_f64()).ceil() as u64
}
