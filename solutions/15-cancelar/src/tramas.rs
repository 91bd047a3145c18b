//! Ejercicio 1: un lector de tramas que se puede cancelar sin perder nada.
//!
//! Una trama (*frame*) es una longitud de 4 bytes, un `u32` big-endian, y
//! detrás esa cantidad de bytes de contenido. `siguiente` devuelve el
//! contenido de la siguiente trama, `Ok(None)` si el flujo se acaba justo
//! entre dos tramas, y un error `UnexpectedEof` si se acaba a mitad de una.
//!
//! Lo importante: `siguiente` tiene que ser seguro ante la cancelación
//! (*cancel safe*). Si alguien suelta el *future* en cualquiera de sus
//! `.await` (por ejemplo, porque otra rama de un `select!` ganó), ningún
//! byte leído se pierde: la siguiente llamada sigue donde se quedó. Por eso
//! los bytes leídos se guardan en `self.pendiente`, no en una variable local
//! del *future*.

use std::io;

use tokio::io::{AsyncRead, AsyncReadExt};

/// Lee tramas con longitud de un `AsyncRead`.
pub struct LectorDeTramas<R> {
    lector: R,
    /// Bytes ya leídos que todavía no forman parte de ninguna trama devuelta.
    pendiente: Vec<u8>,
}

impl<R: AsyncRead + Unpin> LectorDeTramas<R> {
    pub fn new(lector: R) -> Self {
        LectorDeTramas { lector, pendiente: Vec::new() }
    }

    /// El contenido de la siguiente trama. Se puede cancelar en cualquier
    /// `.await` sin perder bytes.
    pub async fn siguiente(&mut self) -> io::Result<Option<Vec<u8>>> {
        loop {
            // ¿Hay ya una trama completa en lo pendiente? Entonces no hace falta esperar.
            if self.pendiente.len() >= 4 {
                let cabecera: [u8; 4] = self.pendiente[..4].try_into().expect("4 bytes");
                let largo = u32::from_be_bytes(cabecera) as usize;
                if self.pendiente.len() >= 4 + largo {
                    let contenido = self.pendiente[4..4 + largo].to_vec();
                    self.pendiente.drain(..4 + largo);
                    return Ok(Some(contenido));
                }
            }
            // `read` es seguro ante la cancelación: si se suelta aquí, no leyó nada.
            // Lo que sí lee va directo a `self`, que sobrevive al future.
            let mut trozo = [0u8; 1024];
            let leidos = self.lector.read(&mut trozo).await?;
            if leidos == 0 {
                return if self.pendiente.is_empty() {
                    Ok(None)
                } else {
                    Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        format!("el flujo se acabó a mitad de una trama ({} bytes sueltos)", self.pendiente.len()),
                    ))
                };
            }
            self.pendiente.extend_from_slice(&trozo[..leidos]);
        }
    }
}
