//! Respuesta incorrecta plausible: `atiende` está bien, pero `sirve` pone
//! todas las conexiones en UN hilo que las atiende por turno. Mientras un
//! cliente no cierre, los demás esperan.

use std::io::{self, ErrorKind, Read, Write};
use std::net::TcpListener;
use std::thread::JoinHandle;

pub fn atiende<C: Read + Write>(mut conexion: C) -> io::Result<u64> {
    let mut buffer = [0u8; 4096];
    let mut total = 0;
    loop {
        let n = match conexion.read(&mut buffer) {
            Ok(0) => return Ok(total),
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        conexion.write_all(&buffer[..n])?;
        total += n as u64;
    }
}

pub fn sirve(escucha: &TcpListener, n: usize) -> io::Result<Vec<JoinHandle<io::Result<u64>>>> {
    let mut conexiones = Vec::with_capacity(n);
    for _ in 0..n {
        conexiones.push(escucha.accept()?.0);
    }
    let hilo = std::thread::spawn(move || {
        let mut total = 0;
        for conexion in conexiones {
            total += atiende(conexion)?;
        }
        Ok(total)
    });
    Ok(vec![hilo])
}
