//! Respuesta incorrecta plausible: trata cualquier error de lectura como si
//! el cliente hubiera cerrado y devuelve `Ok` con lo que lleva. Quien llama
//! no se entera de que la conexión se rompió.

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
        let n = conexion.read(&mut bufer).await.unwrap_or(0);
        if n == 0 {
            return Ok(total); // el otro extremo cerró
        }
        // write_all, no write: write puede escribir solo una parte.
        conexion.write_all(&bufer[..n]).await?;
        total += n as u64;
    }
}
