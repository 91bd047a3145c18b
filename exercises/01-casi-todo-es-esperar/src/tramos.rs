//! Ejercicio 1: ¿calcula o espera?
//!
//! Una traza parte una petición en tramos. De cada tramo sabemos cuánto
//! duró en el reloj de pared (`pared`) y cuánta CPU gastó el hilo en él
//! (`cpu`), como en la traza que imprime `cargo run -p leccion-01`.
//!
//! No te fíes del nombre del tramo: decide con las medidas. Un tramo es de
//! **cálculo** si el hilo usó la CPU al menos la mitad de su duración
//! (`cpu * 2 >= pared`); si no, es de **espera**. Así, un bucle que da
//! vueltas esperando un candado (una espera activa) cuenta como cálculo: la
//! CPU estuvo ocupada aunque no sirviera de nada.

use std::time::Duration;

/// Un tramo medido de la traza.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tramo {
    pub nombre: String,
    /// Lo que duró en el reloj de pared.
    pub pared: Duration,
    /// La CPU que gastó el hilo durante el tramo.
    pub cpu: Duration,
}

/// La clase de un tramo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clase {
    Calculo,
    Espera,
}

/// El tiempo de pared de una traza, repartido por clases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Reparto {
    pub calculo: Duration,
    pub espera: Duration,
}

/// Cálculo si el hilo usó la CPU al menos la mitad del tramo; si no, espera.
/// Cuidado con tres bordes: `pared` puede ser impar (en nanosegundos), un
/// tramo puede traer cualquier `Duration`, también `Duration::MAX`, sin que
/// la cuenta entre en pánico por desbordar, y en un tramo muy largo decide
/// un solo nanosegundo (que un `f64` pierde al redondear).
pub fn clasifica(tramo: &Tramo) -> Clase {
    let _ = tramo;
    todo!("compara tramo.cpu con la mitad de tramo.pared")
}

/// Suma el tiempo de pared de los tramos de cada clase.
pub fn reparte(traza: &[Tramo]) -> Reparto {
    let _ = traza;
    todo!("recorre la traza y suma cada `pared` en su clase")
}
