//! Respuesta incorrecta plausible: el tiempo pasado se cuenta en
//! milisegundos enteros (`as_millis`). Con horas redondas funciona; con una
//! hora en microsegundos, el resto se pierde en cada llamada.
//!
//! Ejercicio 3: que el reloj y el azar vengan de fuera.
//!
//! Dos piezas que un isolate usa a menudo, escritas de la forma que rompe
//! una simulación: leen el reloj del sistema y sacan números al azar de la
//! hora. Con ellas dentro, la misma semilla ya no da la misma ejecución.
//!
//! Cámbialas para que todo venga del contexto, que es lo que el simulador
//! controla:
//!
//! - `Limitador::permite`: un cubo de fichas (*token bucket*). Empieza lleno,
//!   con `capacidad` fichas; cada petición que pasa gasta una; se rellena a
//!   `por_segundo` fichas por segundo, sin pasar nunca de `capacidad`. La
//!   hora, de `ctx.ahora()`.
//! - `espera_reintento`: espera exponencial con azar completo. Para el
//!   reintento número `intento` (0, 1, 2...), un valor al azar en
//!   `0..min(BASE * 2^intento, TOPE)`, en microsegundos. El azar, de
//!   `ctx.azar()`.

use std::time::Duration;

use nucleo::Ctx;

/// Un limitador de ritmo: un cubo de fichas.
#[derive(Debug, Clone)]
pub struct Limitador {
    capacidad: u32,
    por_segundo: u32,
    fichas: f64,
    ultima: Option<Duration>,
}

impl Limitador {
    pub fn new(capacidad: u32, por_segundo: u32) -> Self {
        Limitador { capacidad, por_segundo, fichas: f64::from(capacidad), ultima: None }
    }

    /// ¿Puede pasar una petición ahora? Si puede, gasta una ficha.
    pub fn permite(&mut self, ctx: &Ctx) -> bool {
        let ahora = ctx.ahora();
        if let Some(antes) = self.ultima {
            let pasado = ahora.saturating_sub(antes).as_millis() as f64 / 1_000.0;
            self.fichas = (self.fichas + pasado * f64::from(self.por_segundo)).min(f64::from(self.capacidad));
        }
        self.ultima = Some(ahora);
        if self.fichas >= 1.0 {
            self.fichas -= 1.0;
            true
        } else {
            false
        }
    }
}

/// La espera del primer reintento, como mucho.
pub const BASE: Duration = Duration::from_millis(10);
/// La espera más larga.
pub const TOPE: Duration = Duration::from_secs(1);

/// Cuánto esperar antes del reintento número `intento`.
pub fn espera_reintento(intento: u32, ctx: &mut Ctx) -> Duration {
    let techo = BASE.saturating_mul(2u32.saturating_pow(intento.min(20))).min(TOPE);
    let micros = ctx.azar().hasta(techo.as_micros() as usize);
    Duration::from_micros(micros as u64)
}
