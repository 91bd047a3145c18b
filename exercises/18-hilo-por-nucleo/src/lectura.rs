//! Ejercicio 1: leer líneas con búferes propios, y sobrevivir a la cancelación.
//!
//! `Lector` lee líneas (terminadas en `\n`) de una [`Fuente`] por
//! finalización, con un único búfer de `capacidad` bytes que presta a cada
//! lectura y recupera con su resultado. `linea()` devuelve la siguiente
//! línea sin el `\n`; `Ok(None)` si los datos acaban justo después de una
//! línea; `Err` de tipo `UnexpectedEof` si acaban a media línea, y de tipo
//! `InvalidData` si una línea no cabe en el búfer. Un error de la fuente
//! llega tal cual, y el lector sigue sirviendo después.
//!
//! Lo importante: `linea()` se puede cancelar (soltar su *future*) en
//! cualquier momento sin perder nada. Una lectura ya enviada no se puede
//! retirar: el sistema terminará de escribir en el búfer igualmente. Así que
//! la lectura en vuelo no puede vivir dentro del *future* de `linea()`, sino
//! en el propio `Lector`, y la siguiente llamada la retoma en lugar de
//! enviar otra.

use std::io;

use crate::finalizacion::Fuente;

/// Lee líneas de `F` con un solo búfer.
pub struct Lector<F: Fuente> {
    fuente: F,
    /// El búfer, cuando está en casa (no hay ninguna lectura en vuelo).
    bufer: Option<Vec<u8>>,
    /// La lectura en vuelo, que tiene el búfer.
    en_vuelo: Option<F::Lectura>,
    /// La fuente ya dijo que no hay más datos.
    fin: bool,
}

impl<F: Fuente> Lector<F> {
    /// Un lector con un búfer de `capacidad` bytes (reservado una sola vez).
    pub fn new(fuente: F, capacidad: usize) -> Self {
        Lector { fuente, bufer: Some(Vec::with_capacity(capacidad)), en_vuelo: None, fin: false }
    }

    /// La siguiente línea, sin el `\n`. Cancelable sin perder datos.
    pub async fn linea(&mut self) -> io::Result<Option<Vec<u8>>> {
        let _ = (&mut self.fuente, &mut self.bufer, &mut self.en_vuelo, &mut self.fin);
        todo!("busca una línea en el búfer; si no la hay, presta el búfer a una lectura guardada en self.en_vuelo")
    }
}
