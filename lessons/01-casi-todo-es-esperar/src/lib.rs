//! Lección 01: casi todo es esperar.
//!
//! `cargo run -p leccion-01 --release` atiende cien peticiones simuladas,
//! una detrás de otra, y cuenta cuánto de su tiempo pasó el hilo calculando y
//! cuánto esperando. Aquí está lo que el programa necesita: el cálculo (un
//! hash de verdad), la «base de datos» que responde por 127.0.0.1 y el reloj
//! de CPU del hilo.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

use opciones::clap::{self, Parser};

/// Lo que ocupa el texto que cada petición resume con un hash.
pub const TAMANO_DEL_CALCULO: usize = 8 * 1024;

/// Lo que tarda la «base de datos» simulada en contestar.
pub const ESPERA_DE_LA_BASE: Duration = Duration::from_millis(10);

// ANCHOR: hash
/// FNV-1a de 64 bits: un byte cada vez, una multiplicación por byte. Es
/// cálculo puro: ni memoria nueva ni llamadas al sistema.
pub fn fnv1a(datos: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in datos {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}
// ANCHOR_END: hash

/// El tiempo de CPU que ha gastado el hilo que llama, desde que nació.
/// `None` si el sistema no ofrece ese reloj.
pub fn cpu_del_hilo() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `t` es un `timespec` válido y nuestro; la llamada solo escribe en él.
        let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
        if r == 0 {
            return Some(Duration::new(t.tv_sec as u64, t.tv_nsec as u32));
        }
        None
    }
    #[cfg(not(unix))]
    {
        None
    }
}

// ANCHOR: base
/// Arranca, en un hilo aparte, una «base de datos» de mentira que escucha en
/// 127.0.0.1 (puerto elegido por el sistema). Por cada consulta de 8 bytes
/// espera `espera` y devuelve los mismos 8 bytes. Atiende una sola conexión
/// y termina cuando el cliente la cierra.
pub fn arranca_base_de_datos(espera: Duration) -> std::io::Result<SocketAddr> {
    let escucha = TcpListener::bind("127.0.0.1:0")?;
    let direccion = escucha.local_addr()?;
    std::thread::spawn(move || {
        let Ok((mut conexion, _)) = escucha.accept() else { return };
        let _ = conexion.set_nodelay(true);
        let mut consulta = [0u8; 8];
        while conexion.read_exact(&mut consulta).is_ok() {
            std::thread::sleep(espera); // la «consulta» tarda lo que tarda
            if conexion.write_all(&consulta).is_err() {
                break;
            }
        }
    });
    Ok(direccion)
}
// ANCHOR_END: base

/// Conecta con la base de datos simulada, sin el retraso de Nagle.
pub fn conecta(direccion: SocketAddr) -> std::io::Result<TcpStream> {
    let conexion = TcpStream::connect(direccion)?;
    conexion.set_nodelay(true)?;
    Ok(conexion)
}

/// El tope de peticiones: con 10 ms de espera cada una, unos 100 segundos.
pub const MAX_PETICIONES: u32 = 10_000;

/// Opciones de la lección, leídas de la línea de órdenes.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(
    name = "leccion-01",
    about = "Peticiones simuladas, una detrás de otra: cuánto calcula el hilo y cuánto espera."
)]
pub struct Opciones {
    /// Diez peticiones (lo que usan las pruebas)
    #[arg(long)]
    pub rapido: bool,
    /// Cuántas peticiones atender
    #[arg(long, value_name = "N", default_value = "100", default_value_if("rapido", "true", "10"),
          value_parser = opciones::entre(1, MAX_PETICIONES))]
    pub peticiones: u32,
}

/// El capítulo del libro: cada bloque de Rust se compila como prueba de
/// documentación de este crate.
#[cfg(doctest)]
#[doc = include_str!("../../../book/01-casi-todo-es-esperar.md")]
pub struct CapituloDelLibro;

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn fnv1a_conocido() {
        // Valores de referencia de FNV-1a de 64 bits.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn la_base_de_datos_devuelve_la_consulta() {
        let direccion = arranca_base_de_datos(Duration::from_millis(1)).unwrap();
        let mut c = conecta(direccion).unwrap();
        c.write_all(&42u64.to_le_bytes()).unwrap();
        let mut r = [0u8; 8];
        c.read_exact(&mut r).unwrap();
        assert_eq!(u64::from_le_bytes(r), 42);
    }

    #[test]
    fn opciones() {
        let a = |v: &[&str]| opciones::lee::<Opciones>(v.iter().copied());
        assert_eq!(a(&[]).unwrap().peticiones, 100);
        assert_eq!(a(&["--rapido"]).unwrap().peticiones, 10);
        assert_eq!(a(&["--peticiones", "500"]).unwrap().peticiones, 500);
        assert!(a(&["--peticiones", "0"]).is_err());
        assert!(a(&["--peticiones", "20000"]).is_err());
        assert!(a(&["--peticiones"]).is_err());
        assert!(a(&["--hilos"]).unwrap_err().contains("desconocida"));
    }
}
