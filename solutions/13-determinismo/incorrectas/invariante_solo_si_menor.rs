//! Respuesta incorrecta plausible: da por hecho que una lectura vieja siempre
//! es menor que el saldo de ahora (`leido < habia`), porque «desde que leí
//! solo han entrado ingresos». Con una retirada en medio, la lectura vieja
//! es mayor y la pérdida pasa sin que nadie la vea.
//!
//! Ejercicio 2: una invariante que señala el paso exacto.
//!
//! La lección comprueba la invariante al final: «todo lo ingresado está en la
//! cuenta». Eso dice que algo falló, pero no dónde. Esta comprobación mira
//! la historia de escrituras de la cuenta, en el orden en que las aplicó, y
//! encuentra la primera que pisó a otra.
//!
//! Cada `Escritura` dice qué saldo leyó el cajero (`leido`) y cuál escribió
//! (`nuevo`). La cuenta empieza con `inicial`. Una escritura es correcta si
//! lo que leyó su cajero es lo que había en la cuenta justo antes de
//! aplicarla, es decir, lo que dejó escrito la escritura anterior (o el saldo
//! inicial, si es la primera). Si no, es una actualización perdida: pisa
//! una escritura que su cajero no vio.
//!
//! `primera_perdida` devuelve la primera escritura incorrecta (con su
//! índice, lo que había y lo que su cajero creía que había), o `None`.

use nucleo::Dir;

/// Una escritura, tal como la aplicó la cuenta.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Escritura {
    pub cajero: Dir,
    pub leido: i64,
    pub nuevo: i64,
}

/// Una actualización perdida: la escritura `indice` se basó en `leido`,
/// pero en la cuenta había `habia`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Perdida {
    pub indice: usize,
    pub habia: i64,
    pub leido: i64,
}

/// La primera escritura que pisó a otra, si la hay.
pub fn primera_perdida(inicial: i64, escrituras: &[Escritura]) -> Option<Perdida> {
    let mut habia = inicial;
    for (indice, e) in escrituras.iter().enumerate() {
        if e.leido < habia {
            return Some(Perdida { indice, habia, leido: e.leido });
        }
        habia = e.nuevo;
    }
    None
}
