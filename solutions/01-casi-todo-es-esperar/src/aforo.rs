//! Ejercicio 2 (solución): todas las cuentas en nanosegundos enteros.

use std::time::Duration;

const NS_POR_SEGUNDO: u128 = 1_000_000_000;

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
    match por_peticion.as_nanos() {
        0 => u64::MAX,
        ns => u64::try_from(NS_POR_SEGUNDO / ns).unwrap_or(u64::MAX),
    }
}

/// Cuántos hilos bloqueantes hacen falta para atender `ritmo` peticiones
/// por segundo si cada una tiene su hilo ocupado durante `por_peticion`.
pub fn hilos_necesarios(ritmo: u64, por_peticion: Duration) -> u64 {
    // u64 × u128 puede pasarse incluso de u128: si no cabe, tampoco cabe en u64.
    match u128::from(ritmo).checked_mul(por_peticion.as_nanos()) {
        Some(producto) => u64::try_from(producto.div_ceil(NS_POR_SEGUNDO)).unwrap_or(u64::MAX),
        None => u64::MAX,
    }
}
