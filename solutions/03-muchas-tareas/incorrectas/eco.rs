//! Respuesta incorrecta plausible: una sola lectura y una sola escritura. Con
//! un mensaje corto parece que funciona; con dos mensajes, o con uno que
//! llega en dos trozos, se pierde el resto.

use std::io;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

pub async fn atiende<S>(mut conexion: S) -> io::Result<u64>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut bufer = [0u8; 1024];
    let n = conexion.read(&mut bufer).await?;
    conexion.write_all(&bufer[..n]).await?;
    Ok(n as u64)
}
