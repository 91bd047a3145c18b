//! Respuesta incorrecta plausible: mira la señal de apagado solo después de
//! aceptar cada conexión. Si no llega ninguna conexión más, no se apaga nunca.

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
        let (conexion, _) = escucha.accept().await?;
        tokio::spawn(atiende(conexion));
        aceptadas += 1;
        // ¿Ha llegado ya la señal? Se mira una vez, sin esperar.
        tokio::select! {
            biased;
            _ = &mut apagado => return Ok(aceptadas),
            _ = std::future::ready(()) => {}
        }
    }
}
