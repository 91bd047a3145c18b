//! Respuesta incorrecta plausible: además de `Interrupted`, reintenta
//! `TimedOut` y `WouldBlock` («solo era un plazo»). Con un plazo de lectura
//! puesto, un cliente que se fue deja al hilo leyendo para siempre.

use std::io::{self, ErrorKind, Read, Write};
use std::net::TcpListener;
use std::thread::JoinHandle;

/// Devuelve por `conexion` todo lo que llega por ella, hasta que el otro
/// lado cierre. Devuelve cuántos bytes devolvió.
pub fn atiende<C: Read + Write>(mut conexion: C) -> io::Result<u64> {
    let mut buffer = [0u8; 4096];
    let mut total = 0;
    loop {
        let n = match conexion.read(&mut buffer) {
            Ok(0) => return Ok(total), // el otro lado cerró
            Ok(n) => n,
            Err(e) if matches!(e.kind(), ErrorKind::Interrupted | ErrorKind::TimedOut | ErrorKind::WouldBlock) => {
                continue;
            }
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
