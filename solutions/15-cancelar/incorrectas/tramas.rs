//! Respuesta incorrecta plausible: lee la cabecera con `read_u32` y el
//! contenido con `read_exact`. Da las tramas bien si nadie la cancela, pero
//! ninguno de los dos es seguro ante la cancelación: si se suelta el future a
//! mitad, los bytes que ya habían leído se pierden con él.

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
        let largo = match self.lector.read_u32().await {
            Ok(largo) => largo as usize,
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof && self.pendiente.is_empty() => return Ok(None),
            Err(e) => return Err(e),
        };
        let mut contenido = vec![0u8; largo];
        self.lector.read_exact(&mut contenido).await?;
        Ok(Some(contenido))
    }
}
