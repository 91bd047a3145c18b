//! Respuesta incorrecta plausible: al apagar, espera a que terminen todas
//! las conexiones abiertas antes de volver («un apagado ordenado»). Mientras
//! un cliente siga conectado, `sirve` no vuelve.

use std::future::Future;
use std::io;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Lo que el servidor hace con cada conexión: saluda y espera, sin hacer
/// nada más, hasta que el cliente cierra. Ya está escrita.
pub async fn atiende(mut conexion: TcpStream) {
    if conexion.write_all(b"hola\n").await.is_err() {
        return;
    }
    let mut resto = Vec::new();
    let _ = conexion.read_to_end(&mut resto).await;
}

/// Acepta conexiones y lanza una tarea por cada una hasta que `apagado`
/// termina. Devuelve cuántas aceptó.
pub async fn sirve<F>(escucha: TcpListener, apagado: F) -> io::Result<usize>
where
    F: Future<Output = ()>,
{
    // `select!` sondea `apagado` en cada vuelta sin consumirlo: hay que
    // fijarlo (pin) y pasarlo por referencia.
    tokio::pin!(apagado);
    let mut tareas = Vec::new();
    let mut aceptadas = 0;
    loop {
        tokio::select! {
            _ = &mut apagado => {
                for tarea in tareas {
                    let _ = tarea.await;
                }
                return Ok(aceptadas);
            }
            // `accept` se puede cancelar sin perder conexiones: si gana el
            // apagado, no se queda ninguna a medias.
            resultado = escucha.accept() => {
                let (conexion, _) = resultado?;
                tareas.push(tokio::spawn(atiende(conexion)));
                aceptadas += 1;
            }
        }
    }
}
