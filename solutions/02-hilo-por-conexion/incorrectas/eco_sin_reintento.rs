//! Respuesta incorrecta plausible: propaga con `?` cualquier error de
//! `read`, también `Interrupted`, que solo significa «vuelve a intentarlo».

use std::io::{self, Read, Write};
use std::net::TcpListener;
use std::thread::JoinHandle;

pub fn atiende<C: Read + Write>(mut conexion: C) -> io::Result<u64> {
    let mut buffer = [0u8; 4096];
    let mut total = 0;
    loop {
        let n = conexion.read(&mut buffer)?;
        if n == 0 {
            return Ok(total);
        }
        conexion.write_all(&buffer[..n])?;
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
