//! Ejercicio 1: el manejador de eco, con Tokio.
//!
//! `atiende` recibe una conexión (cualquier cosa que se pueda leer y
//! escribir de forma asíncrona: un `TcpStream`, o un guion de prueba) y
//! devuelve cada byte que lee, en el mismo orden, hasta que el otro extremo
//! cierra. Entonces devuelve cuántos bytes ha devuelto.
//!
//! Recuerda: una lectura puede traer menos bytes de los que caben en tu
//! búfer, y leer 0 bytes significa que el otro extremo cerró.

use std::io;

use tokio::io::{AsyncRead, AsyncWrite};

/// Devuelve todo lo que llega por `conexion` hasta que se cierra.
pub async fn atiende<S>(conexion: S) -> io::Result<u64>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let _ = conexion;
    todo!("lee con read(&mut bufer).await en un bucle y escribe con write_all(&bufer[..n]).await")
}
