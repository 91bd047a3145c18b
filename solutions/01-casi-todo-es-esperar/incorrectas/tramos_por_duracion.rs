//! Respuesta incorrecta plausible: «lo largo es espera». Acierta con la
//! petición típica (cálculo corto, espera larga) y falla con un cálculo
//! largo o con una espera corta. Además suma `cpu` en vez de `pared`.

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
    if tramo.pared > Duration::from_millis(1) { Clase::Espera } else { Clase::Calculo }
}

pub fn reparte(traza: &[Tramo]) -> Reparto {
    let mut reparto = Reparto::default();
    for tramo in traza {
        match clasifica(tramo) {
            Clase::Calculo => reparto.calculo += tramo.cpu,
            Clase::Espera => reparto.espera += tramo.pared,
        }
    }
    reparto
}
