//! El generador de carga: abierto (*open-loop*), por loopback, acotado.
//! Reparte `ritmo` peticiones por segundo entre `conexiones` conexiones
//! durante `duracion`, sin esperar las respuestas para enviar la siguiente.
//! Cada petición son 16 bytes: su número y la hora a la que debía salir según
//! el plan. El servidor la devuelve tal cual, y la latencia se cuenta desde
//! esa hora del plan (como en el capítulo 14).

use std::io::{self, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// Lo que define una medida.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Carga {
    pub ritmo: f64,
    pub duracion: Duration,
    pub conexiones: usize,
}

impl Carga {
    pub fn peticiones(&self) -> usize {
        (self.ritmo * self.duracion.as_secs_f64()).round() as usize
    }
}

/// Lo que mide el generador.
#[derive(Debug, Clone, PartialEq)]
pub struct Medida {
    pub enviadas: u64,
    pub recibidas: u64,
    /// Respuestas por segundo, desde el inicio hasta la última.
    pub rendimiento: f64,
    /// Latencias ordenadas, en microsegundos.
    pub latencias_us: Vec<u64>,
}

/// Cuánto espera cada lector una respuesta antes de darla por perdida: es
/// solo una red de seguridad para que la medida acabe siempre.
const PACIENCIA: Duration = Duration::from_secs(2);

// ANCHOR: generador
/// Mide un servidor que escucha en `127.0.0.1:puerto`.
pub fn genera(puerto: u16, carga: Carga) -> io::Result<Medida> {
    let destino = SocketAddr::from(([127, 0, 0, 1], puerto));
    let total = carga.peticiones();
    let mut escritores = Vec::new();
    let mut lectores = Vec::new();
    let inicio = Instant::now();
    for j in 0..carga.conexiones {
        let conexion = TcpStream::connect(destino)?;
        conexion.set_nodelay(true)?;
        conexion.set_read_timeout(Some(PACIENCIA))?;
        let esperadas = (j..total).step_by(carga.conexiones).count();
        let lectura = conexion.try_clone()?;
        lectores.push(std::thread::spawn(move || lee_respuestas(lectura, esperadas, inicio)));
        escritores.push(conexion);
    }
    // Un solo hilo escribe, con el plan: la petición k sale a inicio + k / ritmo.
    let intervalo = 1.0 / carga.ritmo;
    let mut enviadas = 0;
    for k in 0..total {
        let plan = Duration::from_secs_f64(k as f64 * intervalo);
        let ahora = inicio.elapsed();
        if plan > ahora {
            std::thread::sleep(plan - ahora);
        }
        let mut trama = [0u8; 16];
        trama[..8].copy_from_slice(&(k as u64).to_le_bytes());
        trama[8..].copy_from_slice(&(plan.as_nanos() as u64).to_le_bytes());
        if escritores[k % carga.conexiones].write_all(&trama).is_err() {
            break;
        }
        enviadas += 1;
    }
    let mut latencias_us = Vec::with_capacity(total);
    let mut ultima = Duration::ZERO;
    for lector in lectores {
        let (mut lat, fin) = lector.join().map_err(|_| io::Error::other("un lector entró en pánico"))?;
        latencias_us.append(&mut lat);
        ultima = ultima.max(fin);
    }
    latencias_us.sort_unstable();
    let recibidas = latencias_us.len() as u64;
    let rendimiento = if ultima.is_zero() { 0.0 } else { recibidas as f64 / ultima.as_secs_f64() };
    Ok(Medida { enviadas, recibidas, rendimiento, latencias_us })
}
// ANCHOR_END: generador

/// Lee las respuestas de una conexión y devuelve sus latencias (µs) y la
/// hora de la última, desde el inicio.
fn lee_respuestas(conexion: TcpStream, esperadas: usize, inicio: Instant) -> (Vec<u64>, Duration) {
    let mut lector = BufReader::with_capacity(64 * 1024, conexion);
    let mut latencias = Vec::with_capacity(esperadas);
    let mut ultima = Duration::ZERO;
    let mut trama = [0u8; 16];
    while latencias.len() < esperadas {
        if lector.read_exact(&mut trama).is_err() {
            break; // se acabó la paciencia o el servidor cerró: lo que falte, perdido
        }
        let ahora = inicio.elapsed();
        let plan = u64::from_le_bytes(trama[8..].try_into().expect("8 bytes"));
        latencias.push((ahora.as_nanos() as u64).saturating_sub(plan) / 1000);
        ultima = ahora;
    }
    (latencias, ultima)
}
