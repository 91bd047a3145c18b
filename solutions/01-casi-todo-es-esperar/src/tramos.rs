//! Ejercicio 1 (solución): la clase la deciden las medidas, no el nombre.

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
pub fn clasifica(tramo: &Tramo) -> Clase {
    // `cpu * 2 >= pared`, dicho sin multiplicar: lo que no fue CPU no pasa de lo
    // que sí lo fue. `cpu * 2` desbordaría (y entraría en pánico) con tramos
    // enormes, y `pared / 2` redondea hacia abajo cuando `pared` es impar.
    if tramo.pared.saturating_sub(tramo.cpu) <= tramo.cpu { Clase::Calculo } else { Clase::Espera }
}

/// Suma el tiempo de pared de los tramos de cada clase.
pub fn reparte(traza: &[Tramo]) -> Reparto {
    let mut reparto = Reparto::default();
    for tramo in traza {
        match clasifica(tramo) {
            Clase::Calculo => reparto.calculo += tramo.pared,
            Clase::Espera => reparto.espera += tramo.pared,
        }
    }
    reparto
}
