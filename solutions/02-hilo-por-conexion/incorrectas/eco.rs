//! Respuesta incorrecta plausible: escribe el búfer entero, no solo lo
//! leído, y con `write` en vez de `write_all`. Con mensajes que llenan el
//! búfer justo parecería funcionar.

use std::io::{self, ErrorKind, Read, Write};
use std::net::TcpListener;
use std::thread::JoinHandle;

pub fn atiende<C: Read + Write>(mut conexion: C) -> io::Result<u64> {
    let mut buffer = [0u8; 16];
    let mut total = 0;
    loop {
        let n = match conexion.read(&mut buffer) {
            Ok(0) => return Ok(total),
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        conexion.write(&buffer)?;
        total += n as u64;
    }
}

pub fn sirve(escucha: &TcpListener, n: usize) -> io::Result<Vec<JoinHandle<io::Result<u64>>>> {
    let mut hilos = Vec::with_capacity(n);
    for _ in 0..n {
        let (conexion, _) = escucha.accept()?;
        hilos.push(std::thread::spawn(move || atiende(conexion)));
    }
    Ok(hilos)
}
