//! Lección 02: un hilo por conexión y su techo.
//!
//! Dos programas:
//!
//! - `cargo run -p leccion-02 --release` crea mil hilos bloqueados en
//!   `read()` y mide lo que cuesta cada uno: tiempo de creación, memoria
//!   virtual, memoria residente y pila del kernel.
//! - `cargo run -p leccion-02 --release --bin eco-bloqueante` arranca un
//!   servidor de eco con un hilo por conexión en 127.0.0.1 y lo pone a prueba
//!   con mil clientes conectados a la vez.
//!
//! Aquí está lo que comparten: una foto de la memoria leída de `/proc`, las
//! opciones, el servidor y el cliente de prueba. Los límites de hilos de la
//! máquina y la lectura de `/proc` son los de `medidas`.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use opciones::clap::{self, Parser};

// ---------------------------------------------------------------------------
// /proc
// ---------------------------------------------------------------------------

/// Una foto de la memoria del proceso y de los hilos, leída de `/proc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Foto {
    /// `VmSize`: espacio de direcciones reservado por el proceso, en bytes.
    pub virtual_: u64,
    /// `VmRSS`: memoria física que el proceso tiene ahora, en bytes.
    pub residente: u64,
    /// `Threads`: hilos vivos del proceso.
    pub hilos: u64,
    /// `KernelStack` de `/proc/meminfo`: pilas del kernel de TODO el
    /// sistema, en bytes. `None` si no está.
    pub pila_nucleo: Option<u64>,
}

impl Foto {
    /// Lee `/proc/self/status` y `/proc/meminfo`. `None` si el sistema no
    /// tiene `/proc`.
    pub fn ahora() -> Option<Foto> {
        let estado = std::fs::read_to_string("/proc/self/status").ok()?;
        let memoria = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        Some(Foto {
            virtual_: medidas::valor_de_campo(&estado, "VmSize")?,
            residente: medidas::valor_de_campo(&estado, "VmRSS")?,
            hilos: medidas::valor_de_campo(&estado, "Threads")?,
            pila_nucleo: medidas::valor_de_campo(&memoria, "KernelStack"),
        })
    }
}

// ---------------------------------------------------------------------------
// Límites de hilos
// ---------------------------------------------------------------------------

/// El tope propio de la lección, se lo permita o no la máquina.
pub const TOPE_DE_LA_LECCION: u64 = 20_000;

/// Los límites de hilos de la máquina (`threads-max`, `pid_max`,
/// `RLIMIT_NPROC`, `pids.max` y `vm.max_map_count`) viven en `medidas`, que
/// comparte con la lección 03.
pub use medidas::{Limites, ZONAS_PARA_LO_DEMAS, ZONAS_POR_HILO};

/// Sube el límite blando de descriptores abiertos (`RLIMIT_NOFILE`) hasta
/// `necesarios`, si el límite duro lo permite. Devuelve el límite que queda.
#[allow(clippy::unnecessary_cast)] // `rlim_t` no es `u64` en todas las plataformas
pub fn asegura_descriptores(necesarios: u64) -> Result<u64, String> {
    #[cfg(unix)]
    {
        let mut r = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        // SAFETY: `r` es nuestro y válido; getrlimit solo escribe en él.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) } != 0 {
            return Err("no se puede leer RLIMIT_NOFILE".into());
        }
        if r.rlim_cur != libc::RLIM_INFINITY && (r.rlim_cur as u64) < necesarios {
            if r.rlim_max != libc::RLIM_INFINITY && (r.rlim_max as u64) < necesarios {
                return Err(format!(
                    "hacen falta {necesarios} descriptores abiertos y el límite duro es {} (mira `ulimit -Hn`)",
                    r.rlim_max
                ));
            }
            r.rlim_cur = necesarios as libc::rlim_t;
            // SAFETY: `r` es válido; solo subimos el límite blando sin pasar del duro.
            if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &r) } != 0 {
                return Err(format!("no se pudo subir RLIMIT_NOFILE a {necesarios}"));
            }
        }
        Ok(r.rlim_cur as u64)
    }
    #[cfg(not(unix))]
    {
        Ok(necesarios)
    }
}

// ---------------------------------------------------------------------------
// El servidor de eco y su cliente de prueba
// ---------------------------------------------------------------------------

// ANCHOR: atiende
/// Atiende una conexión: devuelve cada byte que llega hasta que el cliente
/// cierra. Devuelve cuántos bytes devolvió.
pub fn atiende(mut conexion: TcpStream) -> std::io::Result<u64> {
    let mut total = 0;
    let mut buffer = [0u8; 4096];
    loop {
        // El hilo duerme aquí hasta que llegan bytes o el cliente cierra.
        let n = conexion.read(&mut buffer)?;
        if n == 0 {
            return Ok(total); // el cliente cerró su lado
        }
        conexion.write_all(&buffer[..n])?;
        total += n as u64;
    }
}
// ANCHOR_END: atiende

/// Cuántas conexiones atiende el servidor ahora y cuántas ha aceptado.
#[derive(Debug, Default)]
pub struct Contadores {
    pub activas: AtomicUsize,
    pub aceptadas: AtomicUsize,
    pub pico: AtomicUsize,
}

// ANCHOR: servidor
/// El bucle del servidor: acepta conexiones y lanza un hilo para cada una.
/// Termina cuando se aceptan `maximo` conexiones.
pub fn sirve(escucha: TcpListener, maximo: usize, contadores: Arc<Contadores>) {
    for conexion in escucha.incoming().take(maximo) {
        let Ok(conexion) = conexion else { continue };
        let contadores = Arc::clone(&contadores);
        let activas = contadores.activas.fetch_add(1, Ordering::SeqCst) + 1;
        contadores.pico.fetch_max(activas, Ordering::SeqCst);
        contadores.aceptadas.fetch_add(1, Ordering::SeqCst);
        std::thread::spawn(move || {
            let _ = atiende(conexion); // un hilo del sistema por conexión
            contadores.activas.fetch_sub(1, Ordering::SeqCst);
        });
    }
}
// ANCHOR_END: servidor

/// Arranca el servidor en 127.0.0.1 (puerto elegido por el sistema), en un
/// hilo aparte, para `maximo` conexiones.
pub fn arranca_servidor(maximo: usize) -> std::io::Result<(SocketAddr, Arc<Contadores>)> {
    let escucha = TcpListener::bind("127.0.0.1:0")?;
    let direccion = escucha.local_addr()?;
    let contadores = Arc::new(Contadores::default());
    let para_el_servidor = Arc::clone(&contadores);
    std::thread::spawn(move || sirve(escucha, maximo, para_el_servidor));
    Ok((direccion, contadores))
}

/// El mensaje `m` del cliente `c`: 64 bytes que se pueden comprobar.
pub fn mensaje(c: usize, m: usize) -> [u8; 64] {
    let mut b = [b'.'; 64];
    let texto = format!("cliente {c:05} mensaje {m:03}");
    b[..texto.len()].copy_from_slice(texto.as_bytes());
    b[63] = b'\n';
    b
}

/// Manda el mensaje `m` por cada conexión, por turnos, y comprueba cada eco.
/// Devuelve cuántos ecos llegaron bien.
pub fn ronda(conexiones: &mut [TcpStream], m: usize) -> std::io::Result<usize> {
    let mut bien = 0;
    for (c, conexion) in conexiones.iter_mut().enumerate() {
        let enviado = mensaje(c, m);
        conexion.write_all(&enviado)?;
        let mut eco = [0u8; 64];
        conexion.read_exact(&mut eco)?;
        if eco == enviado {
            bien += 1;
        }
    }
    Ok(bien)
}

// ---------------------------------------------------------------------------
// Opciones
// ---------------------------------------------------------------------------

/// Lo más que aceptan `--pila` (64 MiB) y `--arenas`.
pub const MAX_PILA: u64 = 64 * 1024 * 1024;
pub const MAX_ARENAS: u64 = 1_024;

/// Opciones de `leccion-02`.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(name = "leccion-02", about = "Mil hilos del sistema bloqueados en read(): lo que cuesta cada uno.")]
pub struct OpcionesHilos {
    /// Cien hilos (lo que usan las pruebas)
    #[arg(long)]
    pub rapido: bool,
    /// Cuántos hilos crear
    #[arg(long, value_name = "N", default_value = "1000", default_value_if("rapido", "true", "100"),
          value_parser = opciones::entre(1, u64::MAX))]
    pub hilos: u64,
    /// La pila de cada hilo, pedida con `thread::Builder::stack_size` (como `RUST_MIN_STACK`)
    #[arg(long, value_name = "BYTES", value_parser = opciones::entre(1, MAX_PILA))]
    pub pila: Option<u64>,
    /// El tope de arenas del asignador de glibc, con `mallopt(M_ARENA_MAX)` (como `MALLOC_ARENA_MAX`)
    #[arg(long, value_name = "N", value_parser = opciones::entre(1, MAX_ARENAS))]
    pub arenas: Option<u64>,
}

/// Pone el tope de arenas del asignador de `glibc`, como `MALLOC_ARENA_MAX`.
/// Hay que llamarla antes de crear hilos. Devuelve `false` si este sistema
/// no usa `glibc` o no lo acepta.
pub fn limita_arenas(n: u64) -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let n = libc::c_int::try_from(n).unwrap_or(libc::c_int::MAX);
        // SAFETY: `mallopt` solo cambia un parámetro del asignador.
        unsafe { libc::mallopt(libc::M_ARENA_MAX, n) == 1 }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        let _ = n;
        false
    }
}

/// Lo más que acepta `--mensajes`.
pub const MAX_MENSAJES: u64 = 1_000;

/// Opciones de `eco-bloqueante`.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(name = "eco-bloqueante", about = "Un servidor de eco con un hilo por conexión, y mil clientes a la vez.")]
pub struct OpcionesEco {
    /// Cinco clientes y tres mensajes (lo que usan las pruebas)
    #[arg(long)]
    pub rapido: bool,
    /// Cuántos clientes conectados a la vez
    #[arg(long, value_name = "N", default_value = "1000", default_value_if("rapido", "true", "5"),
          value_parser = opciones::entre(1, u64::MAX))]
    pub clientes: u64,
    /// Cuántos mensajes manda cada cliente
    #[arg(long, value_name = "M", default_value = "10", default_value_if("rapido", "true", "3"),
          value_parser = opciones::entre(1, MAX_MENSAJES))]
    pub mensajes: u64,
}

/// Bytes en MiB, para imprimir.
pub fn mib(bytes: f64) -> f64 {
    bytes / (1024.0 * 1024.0)
}

/// Bytes en KiB, para imprimir.
pub fn kib(bytes: f64) -> f64 {
    bytes / 1024.0
}

/// El capítulo del libro: cada bloque de Rust se compila como prueba de
/// documentación de este crate.
#[cfg(doctest)]
#[doc = include_str!("../../../book/02-hilo-por-conexion.md")]
pub struct CapituloDelLibro;

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn opciones() {
        let h = |v: &[&str]| opciones::lee::<OpcionesHilos>(v.iter().copied());
        let n = |v: &[&str]| h(v).map(|o| o.hilos);
        assert_eq!(n(&[]), Ok(1_000));
        assert_eq!(n(&["--rapido"]), Ok(100));
        assert_eq!(n(&["--hilos", "5000"]), Ok(5_000));
        let o = h(&["--pila", "65536", "--arenas", "1", "--rapido"]).unwrap();
        assert_eq!((o.hilos, o.pila, o.arenas), (100, Some(65_536), Some(1)));
        assert!(h(&["--pila", "0"]).is_err());
        assert!(h(&["--arenas"]).is_err());
        assert!(h(&["--hilos", "0"]).is_err());
        assert!(h(&["--hilos", "mil"]).is_err());
        assert!(h(&["--tareas"]).unwrap_err().contains("desconocida"));
        let e = |v: &[&str]| opciones::lee::<OpcionesEco>(v.iter().copied()).map(|o| (o.clientes, o.mensajes));
        assert_eq!(e(&[]), Ok((1_000, 10)));
        assert_eq!(e(&["--rapido"]), Ok((5, 3)));
        assert_eq!(e(&["--clientes", "50", "--mensajes", "2"]), Ok((50, 2)));
        assert!(e(&["--mensajes", "5000"]).is_err());
        assert!(e(&["--hilos", "3"]).unwrap_err().contains("desconocida"));
    }

    #[test]
    fn el_servidor_devuelve_lo_que_recibe() {
        let (direccion, contadores) = arranca_servidor(2).unwrap();
        let mut conexiones = vec![TcpStream::connect(direccion).unwrap(), TcpStream::connect(direccion).unwrap()];
        assert_eq!(ronda(&mut conexiones, 0).unwrap(), 2);
        assert_eq!(ronda(&mut conexiones, 1).unwrap(), 2);
        assert_eq!(contadores.aceptadas.load(Ordering::SeqCst), 2);
    }
}
