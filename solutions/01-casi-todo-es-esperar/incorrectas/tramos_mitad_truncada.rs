//! Respuesta incorrecta plausible: compara la CPU con `pared / 2`. La
//! división entera redondea hacia abajo: con 1001 ns de pared, la «mitad» son
//! 500 ns y 500 ns de CPU pasan por cálculo, aunque sean menos de la mitad.

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
    if tramo.cpu >= tramo.pared / 2 { Clase::Calculo } else { Clase::Espera }
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
