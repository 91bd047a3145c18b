//! Ejercicio 2: las cuentas de un hilo que espera.
//!
//! Con lo que mide la lección (cuánto calcula y cuánto espera cada
//! petición) se puede contestar a tres preguntas. Las cuentas, con enteros
//! de nanosegundos: `Duration::as_nanos()` da un `u128` y no pierde nada.
//! Cuidado con `as_millis()`: 10 µs son 0 ms.

use std::time::Duration;

/// Qué fracción del tiempo de una petición es espera, entre 0.0 y 1.0.
/// Si la petición no dura nada, 0.0. Vale para cualquier `Duration`, también
/// para dos tan largas que su suma no cabe en otra `Duration`.
///
/// 10 µs de cálculo y 10 ms de espera dan 10 000 / 10 010 ≈ 0,999.
pub fn fraccion_de_espera(calculo: Duration, espera: Duration) -> f64 {
    let _ = (calculo, espera);
    todo!("espera / (calculo + espera), en nanosegundos y como f64")
}

/// Cuántas peticiones completas caben en un segundo si un hilo las atiende
/// una detrás de otra y cada una le ocupa `por_peticion` (redondeando hacia
/// abajo: media petición no cuenta). Si `por_peticion` es cero, `u64::MAX`.
///
/// 10 ms + 10 µs por petición dan 99 por segundo; solo los 10 µs de
/// cálculo, 100 000.
pub fn por_segundo(por_peticion: Duration) -> u64 {
    let _ = por_peticion;
    todo!("1 000 000 000 ns / por_peticion en ns")
}

/// Cuántos hilos bloqueantes hacen falta para atender `ritmo` peticiones
/// por segundo si cada una tiene su hilo ocupado durante `por_peticion`
/// (ley de Little: peticiones en curso = ritmo × duración). Redondea hacia
/// arriba: 100,1 hilos son 101 hilos. Si el resultado no cabe en un `u64`,
/// `u64::MAX` (ninguna entrada debe hacerla entrar en pánico).
pub fn hilos_necesarios(ritmo: u64, por_peticion: Duration) -> u64 {
    let _ = (ritmo, por_peticion);
    todo!("ritmo × por_peticion en ns, dividido entre 10⁹ y redondeado hacia arriba")
}
