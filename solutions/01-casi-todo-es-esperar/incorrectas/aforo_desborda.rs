//! Respuesta incorrecta plausible: nanosegundos enteros, pero sin mirar los
//! bordes. `calculo + espera` suma dos `Duration` (y entra en pánico si no
//! cabe), el ritmo convierte los nanosegundos a u64 con `as` (2⁵⁵ s se
//! quedan en 0 ns y la división entra en pánico) y el producto de la ley de
//! Little se multiplica sin comprobar que quepa.

use std::time::Duration;

const NS_POR_SEGUNDO: u128 = 1_000_000_000;

/// Qué fracción del tiempo de una petición es espera, entre 0.0 y 1.0.
/// Si la petición no dura nada, 0.0.
pub fn fraccion_de_espera(calculo: Duration, espera: Duration) -> f64 {
    let total = (calculo + espera).as_nanos();
    if total == 0 {
        return 0.0;
    }
    espera.as_nanos() as f64 / total as f64
}

/// Cuántas peticiones completas caben en un segundo si un hilo las atiende
/// una detrás de otra y cada una le ocupa `por_peticion`.
pub fn por_segundo(por_peticion: Duration) -> u64 {
    match por_peticion.as_nanos() as u64 {
        0 if por_peticion.is_zero() => u64::MAX,
        ns => NS_POR_SEGUNDO as u64 / ns,
    }
}

/// Cuántos hilos bloqueantes hacen falta para atender `ritmo` peticiones
/// por segundo si cada una tiene su hilo ocupado durante `por_peticion`.
pub fn hilos_necesarios(ritmo: u64, por_peticion: Duration) -> u64 {
    let en_curso = (u128::from(ritmo) * por_peticion.as_nanos()).div_ceil(NS_POR_SEGUNDO);
    u64::try_from(en_curso).unwrap_or(u64::MAX)
}
