//! Ejercicio 1: el servidor de eco bloqueante.
//!
//! `atiende` es lo que hace cada hilo del servidor con su conexión: leer lo
//! que llegue y devolverlo tal cual, hasta que el cliente cierre su lado
//! (entonces `read` devuelve `Ok(0)`). Tres detalles que las pruebas miran:
//!
//! - devuelve solo los bytes que leíste: `read` puede llenar el búfer a
//!   medias;
//! - `write` también puede escribir menos de lo que le das: usa `write_all`;
//! - si `read` falla con `ErrorKind::Interrupted` (una señal interrumpió la
//!   llamada), no es un error de la conexión: vuelve a leer. Cualquier otro
//!   error, devuélvelo.
//!
//! `sirve` acepta `n` conexiones de un `TcpListener` y lanza un hilo por
//! cada una, que ejecuta `atiende`. No espera a esos hilos: devuelve sus
//! `JoinHandle`, uno por conexión, en el orden en que las aceptó.

use std::io::{self, Read, Write};
use std::net::TcpListener;
use std::thread::JoinHandle;

/// Devuelve por `conexion` todo lo que llega por ella, hasta que el otro
/// lado cierre. Devuelve cuántos bytes devolvió.
pub fn atiende<C: Read + Write>(mut conexion: C) -> io::Result<u64> {
    let _ = &mut conexion;
    todo!("un bucle: read en un búfer, write_all de lo leído, hasta que read devuelva 0")
}

/// Acepta `n` conexiones y lanza un hilo con `atiende` para cada una.
pub fn sirve(escucha: &TcpListener, n: usize) -> io::Result<Vec<JoinHandle<io::Result<u64>>>> {
    let _ = (escucha, n);
    todo!("escucha.accept() n veces y std::thread::spawn(move || atiende(conexion)) para cada una")
}
