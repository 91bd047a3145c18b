//! Ejercicio 2: el bucle que acepta conexiones, con apagado.
//!
//! `sirve` acepta conexiones de `escucha` y lanza una tarea por conexión
//! (`tokio::spawn`) que ejecuta [`atiende`]. No espera a que una conexión
//! termine para aceptar la siguiente: muchos clientes conectados a la vez
//! deben recibir su saludo a la vez.
//!
//! Además, `sirve` escucha la señal `apagado`: en cuanto ese *future*
//! termina, deja de aceptar y devuelve cuántas conexiones aceptó, aunque no
//! llegue ninguna conexión más. Las conexiones que ya estaban abiertas
//! siguen con su tarea.
//!
//! Mientras sirve, no guardes nada de cada conexión (ni su `JoinHandle`): lo
//! que se guarda hasta el apagado crece con cada cliente, sin límite.

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
    let _ = (escucha, apagado);
    todo!("un bucle con tokio::select! entre escucha.accept() y la señal de apagado")
}
