//! Lección 02: un hilo por conexión y su techo.
//!
//! Dos programas:
//!
//! - `cargo run -p leccion-02 --release` crea mil hilos bloqueados en
//!   `read()` y mide lo que cuesta cada uno: tiempo de creación, memoria
//!   virtual, memoria residente y pila del núcleo.
//! - `cargo run -p leccion-02 --release --bin eco-bloqueante` arranca un
//!   servidor de eco con un hilo por conexión en 127.0.0.1 y lo pone a prueba
//!   con mil clientes conectados a la vez.
//!
//! Aquí está lo que comparten: la lectura de `/proc`, los límites de hilos
//! de la máquina, el servidor y el cliente de prueba.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

// ---------------------------------------------------------------------------
// /proc
// ---------------------------------------------------------------------------

/// Busca `campo:  1234 kB` en un texto como `/proc/self/status` o
/// `/proc/meminfo` y devuelve el valor en bytes (el «kB» del núcleo son
/// KiB). Si el campo no lleva unidad (como `Threads`), devuelve el número tal
/// cual.
pub fn valor_de_campo(texto: &str, campo: &str) -> Option<u64> {
    let linea = texto.lines().find(|l| l.split(':').next() == Some(campo))?;
    let mut partes = linea.split(':').nth(1)?.split_whitespace();
    let numero: u64 = partes.next()?.parse().ok()?;
    match partes.next() {
        Some("kB") => Some(numero * 1024),
        _ => Some(numero),
    }
}

/// Una foto de la memoria del proceso y de los hilos, leída de `/proc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Foto {
    /// `VmSize`: espacio de direcciones reservado por el proceso, en bytes.
    pub virtual_: u64,
    /// `VmRSS`: memoria física que el proceso tiene ahora, en bytes.
    pub residente: u64,
    /// `Threads`: hilos vivos del proceso.
    pub hilos: u64,
    /// `KernelStack` de `/proc/meminfo`: pilas del núcleo de TODO el
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
            virtual_: valor_de_campo(&estado, "VmSize")?,
            residente: valor_de_campo(&estado, "VmRSS")?,
            hilos: valor_de_campo(&estado, "Threads")?,
            pila_nucleo: valor_de_campo(&memoria, "KernelStack"),
        })
    }
}

// ---------------------------------------------------------------------------
// Límites de hilos
// ---------------------------------------------------------------------------

/// El tope propio de la lección, se lo permita o no la máquina.
pub const TOPE_DE_LA_LECCION: u64 = 20_000;

/// Zonas de memoria (*mappings*) que ocupa cada hilo de std en Linux: su
/// pila y la página de guarda de la pila, y la pila alternativa de señales
/// (la que usa el aviso de desbordamiento de pila) con su propia guarda.
pub const ZONAS_POR_HILO: u64 = 4;

/// Zonas que la lección deja para el resto del proceso (el ejecutable, las
/// bibliotecas, el montículo, las arenas de malloc...). Un proceso como este
/// usa unos cientos.
pub const ZONAS_PARA_LO_DEMAS: u64 = 2_000;

/// Lo que la máquina deja crear, y de dónde sale cada número.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limites {
    /// `/proc/sys/kernel/threads-max`: hilos en todo el sistema.
    pub threads_max: Option<u64>,
    /// `/proc/sys/kernel/pid_max`: cada hilo gasta un identificador.
    pub pid_max: Option<u64>,
    /// `RLIMIT_NPROC` (límite blando): hilos y procesos de tu usuario.
    /// `None` si es ilimitado o no se puede leer.
    pub rlimit_nproc: Option<u64>,
    /// `pids.max` del cgroup (v2), si lo hay y no es `max`.
    pub pids_max: Option<u64>,
    /// `/proc/sys/vm/max_map_count`: zonas de memoria por proceso. No lo
    /// comparte con otros procesos, pero cada hilo gasta [`ZONAS_POR_HILO`].
    pub max_map_count: Option<u64>,
}

impl Limites {
    /// Lee los límites de esta máquina. Lo que no se puede leer queda en `None`.
    pub fn de_esta_maquina() -> Limites {
        let numero = |ruta: &str| std::fs::read_to_string(ruta).ok().and_then(|t| t.trim().parse().ok());
        Limites {
            threads_max: numero("/proc/sys/kernel/threads-max"),
            pid_max: numero("/proc/sys/kernel/pid_max"),
            rlimit_nproc: rlimit_nproc(),
            pids_max: numero("/sys/fs/cgroup/pids.max"),
            max_map_count: numero("/proc/sys/vm/max_map_count"),
        }
    }

    /// Cuántos hilos caben en las zonas de memoria de este proceso, dejando
    /// [`ZONAS_PARA_LO_DEMAS`] para lo que no son hilos.
    pub fn hilos_por_zonas(&self) -> Option<u64> {
        self.max_map_count.map(|m| m.saturating_sub(ZONAS_PARA_LO_DEMAS) / ZONAS_POR_HILO)
    }

    /// El límite más estricto de la máquina y su nombre, si se conoce alguno.
    pub fn mas_estricto(&self) -> Option<(u64, &'static str)> {
        [
            (self.threads_max, "threads-max"),
            (self.pid_max, "pid_max"),
            (self.rlimit_nproc, "RLIMIT_NPROC"),
            (self.pids_max, "pids.max"),
        ]
        .into_iter()
        .filter_map(|(v, nombre)| v.map(|v| (v, nombre)))
        .min_by_key(|(v, _)| *v)
    }

    /// Cuántos hilos se permite crear la lección: la mitad del límite más
    /// estricto de los que comparte con otros procesos (la otra mitad queda
    /// para ellos), no más de los que caben en sus zonas de memoria
    /// (`max_map_count`, que es solo de este proceso) y nunca más de
    /// [`TOPE_DE_LA_LECCION`]. Pasar de `max_map_count` no da un error que
    /// se pueda atender: el hilo nuevo no puede preparar su pila alternativa
    /// de señales y aborta el proceso entero.
    pub fn permitidos(&self) -> u64 {
        let compartidos = self.mas_estricto().map_or(TOPE_DE_LA_LECCION, |(v, _)| v / 2);
        let por_zonas = self.hilos_por_zonas().unwrap_or(TOPE_DE_LA_LECCION);
        compartidos.min(por_zonas).min(TOPE_DE_LA_LECCION)
    }

    /// Comprueba que se pueden crear `n` hilos; si no, el mensaje en español.
    pub fn admite(&self, n: u64) -> Result<(), String> {
        if n <= self.permitidos() {
            return Ok(());
        }
        if let (Some(zonas), Some(caben)) = (self.max_map_count, self.hilos_por_zonas())
            && caben == self.permitidos()
            && caben < TOPE_DE_LA_LECCION
        {
            return Err(format!(
                "pides {n} hilos, pero en esta máquina vm.max_map_count es {zonas}: cada hilo ocupa \
                 {ZONAS_POR_HILO} zonas de memoria (su pila y la pila alternativa de señales, cada una con \
                 su página de guarda) y, dejando {ZONAS_PARA_LO_DEMAS} para lo demás, caben {caben}. \
                 Pasar de ahí no da un error: el proceso aborta"
            ));
        }
        Err(match self.mas_estricto() {
            Some((v, nombre)) if v / 2 < TOPE_DE_LA_LECCION => format!(
                "pides {n} hilos, pero en esta máquina {nombre} es {v}; la lección usa como mucho \
                 la mitad, {}, para no dejar sin hilos al resto del sistema",
                v / 2
            ),
            _ => format!("pides {n} hilos; la lección no pasa de {TOPE_DE_LA_LECCION}"),
        })
    }

    /// Una línea para imprimir: qué límites se encontraron.
    pub fn describe(&self) -> String {
        let v = |x: Option<u64>, sin: &str| x.map_or(sin.to_string(), |n| n.to_string());
        format!(
            "threads-max {}, pid_max {}, RLIMIT_NPROC {}, pids.max {}, max_map_count {}",
            v(self.threads_max, "(no se puede leer)"),
            v(self.pid_max, "(no se puede leer)"),
            v(self.rlimit_nproc, "ilimitado"),
            v(self.pids_max, "(sin límite)"),
            v(self.max_map_count, "(no se puede leer)"),
        )
    }
}

/// El límite blando de `RLIMIT_NPROC`, o `None` si es ilimitado.
#[allow(clippy::unnecessary_cast)] // `rlim_t` no es `u64` en todas las plataformas
fn rlimit_nproc() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut r = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        // SAFETY: `r` es nuestro y válido; getrlimit solo escribe en él.
        if unsafe { libc::getrlimit(libc::RLIMIT_NPROC, &mut r) } != 0 || r.rlim_cur == libc::RLIM_INFINITY {
            return None;
        }
        Some(r.rlim_cur as u64)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

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

/// Un número de la línea de órdenes entre 1 y `maximo`.
fn numero(args: &mut impl Iterator<Item = String>, opcion: &str, maximo: u64) -> Result<u64, String> {
    let valor = args.next().ok_or(format!("falta el número después de {opcion}"))?;
    let n: u64 = valor.parse().map_err(|_| format!("{opcion} espera un número entero positivo, no «{valor}»"))?;
    if n == 0 || n > maximo {
        return Err(format!("{opcion} debe estar entre 1 y {maximo}"));
    }
    Ok(n)
}

/// Opciones de `leccion-02`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpcionesHilos {
    /// Cuántos hilos crear.
    pub hilos: u64,
    /// `--pila BYTES`: la pila de cada hilo, pedida con
    /// `thread::Builder::stack_size` (lo mismo que `RUST_MIN_STACK`).
    pub pila: Option<u64>,
    /// `--arenas N`: el tope de arenas del asignador de `glibc`, puesto con
    /// `mallopt(M_ARENA_MAX)` (lo mismo que `MALLOC_ARENA_MAX`).
    pub arenas: Option<u64>,
}

/// Lo más que aceptan `--pila` (64 MiB) y `--arenas`.
pub const MAX_PILA: u64 = 64 * 1024 * 1024;
pub const MAX_ARENAS: u64 = 1_024;

/// `--rapido` (cien hilos) o `--hilos N`; además, `--pila BYTES` y `--arenas N`.
pub fn lee_opciones_hilos(args: impl IntoIterator<Item = String>) -> Result<OpcionesHilos, String> {
    let mut o = OpcionesHilos { hilos: 1_000, pila: None, arenas: None };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rapido" => o.hilos = 100,
            "--hilos" => o.hilos = numero(&mut args, "--hilos", u64::MAX)?,
            "--pila" => o.pila = Some(numero(&mut args, "--pila", MAX_PILA)?),
            "--arenas" => o.arenas = Some(numero(&mut args, "--arenas", MAX_ARENAS)?),
            otro => {
                return Err(format!("opción desconocida «{otro}»; usa --rapido, --hilos N, --pila BYTES o --arenas N"));
            }
        }
    }
    Ok(o)
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

/// Opciones de `eco-bloqueante`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpcionesEco {
    pub clientes: u64,
    pub mensajes: u64,
}

/// Lo más que acepta `--mensajes`.
pub const MAX_MENSAJES: u64 = 1_000;

/// `--rapido` (cinco clientes, tres mensajes), `--clientes N`, `--mensajes M`.
pub fn lee_opciones_eco(args: impl IntoIterator<Item = String>) -> Result<OpcionesEco, String> {
    let mut o = OpcionesEco { clientes: 1_000, mensajes: 10 };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rapido" => o = OpcionesEco { clientes: 5, mensajes: 3 },
            "--clientes" => o.clientes = numero(&mut args, "--clientes", u64::MAX)?,
            "--mensajes" => o.mensajes = numero(&mut args, "--mensajes", MAX_MENSAJES)?,
            otro => {
                return Err(format!("opción desconocida «{otro}»; usa --rapido, --clientes N o --mensajes M"));
            }
        }
    }
    Ok(o)
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
    fn lee_campos_con_y_sin_unidad() {
        let estado = "Name:\tx\nVmSize:\t  4096 kB\nVmRSS:\t  1024 kB\nThreads:\t7\nCpus_allowed_list:\t0-1\n";
        assert_eq!(valor_de_campo(estado, "VmSize"), Some(4096 * 1024));
        assert_eq!(valor_de_campo(estado, "VmRSS"), Some(1024 * 1024));
        assert_eq!(valor_de_campo(estado, "Threads"), Some(7));
        assert_eq!(valor_de_campo(estado, "VmHWM"), None);
        assert_eq!(valor_de_campo(estado, "Cpus_allowed_list"), None);
    }

    #[test]
    fn limites() {
        // La máquina de referencia: el primer límite es el de las zonas de memoria.
        let l = Limites {
            threads_max: Some(192_730),
            pid_max: Some(32_768),
            rlimit_nproc: Some(96_365),
            pids_max: None,
            max_map_count: Some(65_530),
        };
        assert_eq!(l.mas_estricto(), Some((32_768, "pid_max")));
        assert_eq!(l.hilos_por_zonas(), Some(15_882));
        assert_eq!(l.permitidos(), 15_882);
        assert!(l.admite(15_882).is_ok());
        let e = l.admite(16_384).unwrap_err();
        assert!(e.contains("max_map_count es 65530") && e.contains("caben 15882"), "{e}");
        // Con max_map_count alto, manda pid_max.
        let sin_zonas = Limites { max_map_count: Some(1_048_576), ..l.clone() };
        assert_eq!(sin_zonas.permitidos(), 16_384);
        let e = sin_zonas.admite(16_385).unwrap_err();
        assert!(e.contains("pid_max es 32768") && e.contains("16384"), "{e}");
        let holgado = Limites {
            threads_max: Some(1_000_000),
            pid_max: Some(4_194_304),
            rlimit_nproc: None,
            pids_max: None,
            max_map_count: Some(1_048_576),
        };
        assert_eq!(holgado.permitidos(), TOPE_DE_LA_LECCION);
        assert!(holgado.admite(20_001).unwrap_err().contains("no pasa de 20000"));
        let nada =
            Limites { threads_max: None, pid_max: None, rlimit_nproc: None, pids_max: None, max_map_count: None };
        assert_eq!(nada.permitidos(), TOPE_DE_LA_LECCION);
        let estrecho = Limites {
            threads_max: None,
            pid_max: None,
            rlimit_nproc: Some(4_096),
            pids_max: Some(1_000),
            max_map_count: Some(65_530),
        };
        assert_eq!(estrecho.mas_estricto(), Some((1_000, "pids.max")));
        assert_eq!(estrecho.permitidos(), 500);
    }

    #[test]
    fn opciones() {
        let h = |v: &[&str]| lee_opciones_hilos(v.iter().map(|s| s.to_string()));
        let n = |v: &[&str]| h(v).map(|o| o.hilos);
        assert_eq!(n(&[]), Ok(1_000));
        assert_eq!(n(&["--rapido"]), Ok(100));
        assert_eq!(n(&["--hilos", "5000"]), Ok(5_000));
        assert_eq!(
            h(&["--pila", "65536", "--arenas", "1", "--rapido"]),
            Ok(OpcionesHilos { hilos: 100, pila: Some(65_536), arenas: Some(1) })
        );
        assert!(h(&["--pila", "0"]).is_err());
        assert!(h(&["--arenas"]).is_err());
        assert!(h(&["--hilos", "0"]).is_err());
        assert!(h(&["--hilos", "mil"]).is_err());
        assert!(h(&["--tareas"]).unwrap_err().contains("desconocida"));
        let e = |v: &[&str]| lee_opciones_eco(v.iter().map(|s| s.to_string()));
        assert_eq!(e(&[]), Ok(OpcionesEco { clientes: 1_000, mensajes: 10 }));
        assert_eq!(e(&["--rapido"]), Ok(OpcionesEco { clientes: 5, mensajes: 3 }));
        assert_eq!(e(&["--clientes", "50", "--mensajes", "2"]), Ok(OpcionesEco { clientes: 50, mensajes: 2 }));
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
