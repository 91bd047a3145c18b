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
        loop {
            if let Some(bufer) = self.bufer.as_mut() {
                // Primero, lo que ya tenemos: quizá una lectura trajo varias líneas.
                if let Some(fin_de_linea) = bufer.iter().position(|&b| b == b'\n') {
                    let linea = bufer[..fin_de_linea].to_vec();
                    bufer.drain(..=fin_de_linea); // el resto se queda, y la reserva también
                    return Ok(Some(linea));
                }
                if self.fin {
                    if bufer.is_empty() {
                        return Ok(None);
                    }
                    bufer.clear();
                    return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "los datos acaban a media línea"));
                }
                if bufer.len() == bufer.capacity() {
                    return Err(io::Error::new(io::ErrorKind::InvalidData, "la línea no cabe en el búfer"));
                }
                // Prestamos el búfer a una lectura, que queda guardada en el lector.
                let bufer = self.bufer.take().expect("está en casa");
                self.en_vuelo = Some(self.fuente.leer(bufer));
            }
            let lectura = self.en_vuelo.as_mut().expect("si el búfer no está en casa, hay una lectura en vuelo");
            // Si cancelan aquí, la lectura sigue en `self.en_vuelo`, con su búfer.
            let (resultado, bufer) = lectura.await;
            self.en_vuelo = None;
            self.bufer = Some(bufer);
            match resultado {
                Ok(0) => self.fin = true,
                Ok(_) => {}
                Err(e) => return Err(e),
            }
        }
    }
}
