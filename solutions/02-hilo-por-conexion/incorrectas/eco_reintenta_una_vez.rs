//! Respuesta incorrecta plausible: si una señal interrumpe `read`, lo
//! vuelve a intentar UNA vez. Con una interrupción suelta funciona; con dos
//! seguidas, la segunda sale como error de la conexión.

use std::io::{self, ErrorKind, Read, Write};
use std::net::TcpListener;
use std::thread::JoinHandle;

/// Devuelve por `conexion` todo lo que llega por ella, hasta que el otro
/// lado cierre. Devuelve cuántos bytes devolvió.
pub fn atiende<C: Read + Write>(mut conexion: C) -> io::Result<u64> {
    let mut buffer = [0u8; 4096];
    let mut total = 0;
    loop {
        let leido = match conexion.read(&mut buffer) {
            Err(e) if e.kind() == ErrorKind::Interrupted => conexion.read(&mut buffer),
            otro => otro,
        };
        let n = match leido {
            Ok(0) => return Ok(total), // el otro lado cerró
            Ok(n) => n,
            Err(e) => return Err(e),
        };
        // Solo lo leído, y entero aunque `write` acepte menos de una vez.
        conexion.write_all(&buffer[..n])?;
        total += n as u64;
    }
}

/// Acepta `n` conexiones y lanza un hilo con `atiende` para cada una.
pub fn sirve(escucha: &TcpListener, n: usize) -> io::Result<Vec<JoinHandle<io::Result<u64>>>> {
    let mut hilos = Vec::with_capacity(n);
    for _ in 0..n {
        let (conexion, _) = escucha.accept()?;
        hilos.push(std::thread::spawn(move || atiende(conexion)));
    }
    Ok(hilos)
}
