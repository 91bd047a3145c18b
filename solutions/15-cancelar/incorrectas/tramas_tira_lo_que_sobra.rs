//! Respuesta incorrecta plausible: guarda lo leído en `self`, pero al
//! devolver una trama vacía todo lo pendiente. Si una lectura trajo el
//! principio de la trama siguiente, esos bytes se pierden.

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
                    self.pendiente.clear();
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
