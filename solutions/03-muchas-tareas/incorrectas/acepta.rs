//! Respuesta incorrecta plausible: atiende cada conexión dentro del bucle, con
//! `.await`, en lugar de lanzarla en su propia tarea. Parece asíncrono, pero
//! el segundo cliente no recibe nada hasta que el primero cierra.

use std::future::Future;
use std::io;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

pub async fn atiende(mut conexion: TcpStream) {
    if conexion.write_all(b"hola\n").await.is_err() {
        return;
    }
    let mut resto = Vec::new();
    let _ = conexion.read_to_end(&mut resto).await;
}

pub async fn sirve<F>(escucha: TcpListener, apagado: F) -> io::Result<usize>
where
    F: Future<Output = ()>,
{
    tokio::pin!(apagado);
    let mut aceptadas = 0;
    loop {
        tokio::select! {
            _ = &mut apagado => return Ok(aceptadas),
            resultado = escucha.accept() => {
                let (conexion, _) = resultado?;
                atiende(conexion).await;
                aceptadas += 1;
            }
        }
    }
}
