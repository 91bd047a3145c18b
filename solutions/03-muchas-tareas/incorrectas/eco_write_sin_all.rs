//! Respuesta incorrecta plausible: escribe con `write` en vez de
//! `write_all`. `write` puede escribir solo una parte y devuelve cuánto;
//! si no se mira, el resto se pierde sin ningún error.

use std::io;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// Devuelve todo lo que llega por `conexion` hasta que se cierra.
pub async fn atiende<S>(mut conexion: S) -> io::Result<u64>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut bufer = [0u8; 1024];
    let mut total = 0;
    loop {
        let n = conexion.read(&mut bufer).await?;
        if n == 0 {
            return Ok(total); // el otro extremo cerró
        }
        // write_all, no write: write puede escribir solo una parte.
        conexion.write(&bufer[..n]).await?;
        total += n as u64;
    }
}
