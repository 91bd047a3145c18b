//! Respuesta incorrecta plausible: decide por el nombre del tramo. Acierta
//! con las trazas bien etiquetadas y falla con una espera activa o con un
//! cálculo al que el sistema dejó parado.

use std::time::Duration;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tramo {
    pub nombre: String,
    pub pared: Duration,
    pub cpu: Duration,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clase {
    Calculo,
    Espera,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Reparto {
    pub calculo: Duration,
    pub espera: Duration,
}

pub fn clasifica(tramo: &Tramo) -> Clase {
    if tramo.nombre.starts_with("espera") { Clase::Espera } else { Clase::Calculo }
}

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
