//! Respuesta incorrecta plausible: nanosegundos bien, pero `hilos_necesarios`
//! divide sin redondear hacia arriba: 100,1 hilos se quedan en 100, y con
//! menos de un hilo de trabajo, en ninguno.

use std::time::Duration;

pub fn fraccion_de_espera(calculo: Duration, espera: Duration) -> f64 {
    let total = (calculo + espera).as_nanos();
    if total == 0 {
        return 0.0;
    }
    espera.as_nanos() as f64 / total as f64
}

pub fn por_segundo(por_peticion: Duration) -> u64 {
    match por_peticion.as_nanos() {
        0 => u64::MAX,
        ns => (1_000_000_000 / ns) as u64,
    }
}

pub fn hilos_necesarios(ritmo: u64, por_peticion: Duration) -> u64 {
    (u128::from(ritmo) * por_peticion.as_nanos() / 1_000_000_000) as u64
}
