//! Respuesta incorrecta plausible: no valida los datos. Con una carga NaN,
//! `NaN as usize` vale 0, `.max(1)` lo sube a 1 y la función responde
//! `Ok(1)`: un número inventado para una medida rota.
//!
//! Ejercicio 2: dimensionar con lo medido.
//!
//! La lección mide cuántas peticiones por segundo atiende un núcleo. Con ese
//! número se deciden dos cosas:
//!
//! - **Cuántos shards** (o hilos trabajadores): los necesarios para la carga
//!   esperada sin pasar de una ocupación máxima. Un núcleo al 100 % no
//!   absorbe ningún pico; al 70 %, algo. Los shards se redondean **hacia
//!   arriba** (2,3 shards son 3), y siempre hay al menos uno. Si hacen falta
//!   más que núcleos hay, `Err(Insuficiente { necesarios })`.
//! - **Cuánta espera admitir**: el tamaño de la cola (o los permisos del
//!   semáforo) para que nada espere más de `espera_max`. Por la ley de
//!   Little, si se atienden `por_segundo` peticiones por segundo, en
//!   `espera_max` se vacían `por_segundo * espera_max` (con la espera en
//!   segundos). Redondea hacia abajo y deja al menos 1.
//!
//! Dos reglas más, porque los datos vienen de una medida:
//!
//! - **Redondeo**: la coma flotante deja restos. `100.0 * 0.29` da
//!   28,999999999999996, y su `floor` es 28 donde la cuenta exacta da 29.
//!   Antes de redondear, un resultado que está a menos de una
//!   milmillonésima (relativa, `1e-9 * max(1, |x|)`) de un entero cuenta
//!   como ese entero; lo demás se redondea tal cual.
//! - **Datos sin sentido**: una carga o un ritmo negativos, NaN o infinitos,
//!   un `por_shard` que no sea mayor que 0, o una `ocupacion_max` fuera de
//!   (0, 1] son un error de quien llama: la función entra en pánico con un
//!   mensaje que dice qué dato no vale, en vez de devolver un número
//!   inventado (NaN convertido a entero da 0 sin avisar).

use std::time::Duration;

/// No hay núcleos para tanto.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Insuficiente {
    pub necesarios: usize,
}

/// `x` sin el ruido de la coma flotante: si está a menos de una
/// milmillonésima (relativa) de un entero, ese entero.
fn sin_ruido(x: f64) -> f64 {
    let entero = x.round();
    if (x - entero).abs() <= 1e-9 * entero.abs().max(1.0) { entero } else { x }
}

/// Los shards necesarios para `carga` peticiones/s, si cada uno atiende
/// `por_shard` y no debe pasar de `ocupacion_max` (entre 0 y 1).
pub fn shards(carga: f64, por_shard: f64, ocupacion_max: f64, nucleos: usize) -> Result<usize, Insuficiente> {
    let necesarios = (sin_ruido(carga / (por_shard * ocupacion_max)).ceil() as usize).max(1);
    if necesarios > nucleos { Err(Insuficiente { necesarios }) } else { Ok(necesarios) }
}

/// Cuántas peticiones pueden esperar como mucho para que ninguna espere más
/// de `espera_max`, si se atienden `por_segundo`.
pub fn limite(por_segundo: f64, espera_max: Duration) -> usize {
    (sin_ruido(por_segundo * espera_max.as_secs_f64()).floor() as usize).max(1)
}
