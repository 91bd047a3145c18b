//! Lección 03: async, muchas tareas sobre pocos hilos.
//!
//! `cargo run -p leccion-03 --release` abre diez mil conexiones por
//! 127.0.0.1 contra dos servidores de eco, uno con Tokio y otro con un hilo
//! por conexión, y compara los hilos y la memoria de cada uno. Los dos
//! servidores están en [`servidores`]; aquí está lo demás: las opciones, la
//! lectura de `/proc` y los límites del sistema.

pub mod servidores;

/// Opciones de la lección, leídas de la línea de órdenes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opciones {
    /// Cuántas conexiones abre el cliente contra cada servidor.
    pub conexiones: usize,
    /// Modo interno: este proceso es el servidor que pide el cliente.
    pub servidor: Option<Tipo>,
    /// El tope de hilos del servidor de un hilo por conexión.
    pub max_hilos: usize,
}

/// Los dos servidores que compara la lección.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tipo {
    Tokio,
    Hilos,
}

impl Tipo {
    pub fn nombre(self) -> &'static str {
        match self {
            Tipo::Tokio => "tokio",
            Tipo::Hilos => "hilos",
        }
    }
}

/// Las conexiones por defecto.
pub const CONEXIONES: usize = 10_000;
/// Las conexiones de `--rapido`.
pub const CONEXIONES_RAPIDO: usize = 200;
/// El tope de `--conexiones`. El límite de archivos abiertos suele mandar antes.
pub const MAX_CONEXIONES: usize = 100_000;
/// El tope propio de hilos del servidor de un hilo por conexión: con diez
/// mil ya se ve todo lo que hay que ver, y más podría ahogar una máquina
/// pequeña. `--max-hilos` lo cambia.
pub const MAX_HILOS: usize = 10_000;

/// `--rapido` (200 conexiones), `--conexiones N`, `--max-hilos M`; y el modo
/// interno `--servidor tokio|hilos`, con el que el cliente se lanza a sí
/// mismo como servidor.
pub fn lee_opciones(args: impl IntoIterator<Item = String>) -> Result<Opciones, String> {
    let mut opciones = Opciones { conexiones: CONEXIONES, servidor: None, max_hilos: MAX_HILOS };
    let mut args = args.into_iter();
    let numero = |nombre: &str, valor: Option<String>, max: usize| -> Result<usize, String> {
        let valor = valor.ok_or(format!("falta el número después de {nombre}"))?;
        match valor.parse::<usize>() {
            Ok(n) if (1..=max).contains(&n) => Ok(n),
            _ => Err(format!("{nombre} espera un número entre 1 y {max}, no «{valor}»")),
        }
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rapido" => opciones.conexiones = CONEXIONES_RAPIDO,
            "--conexiones" => opciones.conexiones = numero("--conexiones", args.next(), MAX_CONEXIONES)?,
            "--max-hilos" => opciones.max_hilos = numero("--max-hilos", args.next(), MAX_CONEXIONES)?,
            "--servidor" => {
                opciones.servidor = match args.next().as_deref() {
                    Some("tokio") => Some(Tipo::Tokio),
                    Some("hilos") => Some(Tipo::Hilos),
                    _ => return Err("--servidor espera «tokio» o «hilos»".into()),
                }
            }
            otro => {
                return Err(format!(
                    "opción desconocida «{otro}»; usa --rapido, --conexiones N (hasta {MAX_CONEXIONES}) \
                     o --max-hilos M"
                ));
            }
        }
    }
    Ok(opciones)
}

/// Lee un campo en kB de `/proc/self/status` (`VmRSS`, `VmSize`...) y lo
/// devuelve en bytes. `None` si el sistema no tiene `/proc`.
pub fn campo_de_proc(campo: &str) -> Option<u64> {
    let estado = std::fs::read_to_string("/proc/self/status").ok()?;
    valor_en_bytes(&estado, campo)
}

/// Busca `campo:  1234 kB` en el texto de `/proc/self/status`.
pub fn valor_en_bytes(estado: &str, campo: &str) -> Option<u64> {
    let linea = estado.lines().find(|l| l.split(':').next() == Some(campo))?;
    let kib: u64 = linea.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Los hilos de este proceso: una entrada por hilo en `/proc/self/task`.
pub fn hilos_del_proceso() -> Option<usize> {
    Some(std::fs::read_dir("/proc/self/task").ok()?.count())
}

/// Lo que el sistema deja abrir: (límite blando antes, blando ahora, duro).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LimiteDeArchivos {
    pub antes: u64,
    pub ahora: u64,
    pub duro: u64,
}

/// Sube el límite blando de archivos abiertos (`RLIMIT_NOFILE`) hasta el
/// duro, que un proceso sin privilegios no puede pasar. Cada conexión es un
/// descriptor de archivo en el cliente y otro en el servidor; el servidor,
/// que este programa lanza como proceso hijo, hereda el límite.
#[cfg(unix)]
#[allow(clippy::unnecessary_cast)] // `rlim_t` no es `u64` en todas las plataformas
pub fn sube_limite_de_archivos() -> Option<LimiteDeArchivos> {
    let mut limite = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit solo escribe en la estructura que le pasamos.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limite) } != 0 {
        return None;
    }
    let antes = limite.rlim_cur as u64;
    if limite.rlim_cur < limite.rlim_max {
        let nuevo = libc::rlimit { rlim_cur: limite.rlim_max, rlim_max: limite.rlim_max };
        // SAFETY: setrlimit solo lee la estructura que le pasamos.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &nuevo) } == 0 {
            limite = nuevo;
        }
    }
    Some(LimiteDeArchivos { antes, ahora: limite.rlim_cur as u64, duro: limite.rlim_max as u64 })
}

#[cfg(not(unix))]
pub fn sube_limite_de_archivos() -> Option<LimiteDeArchivos> {
    None
}

/// Descriptores que se reservan para lo demás (salida, tuberías, el *listener*...).
pub const MARGEN_DE_ARCHIVOS: u64 = 64;

/// Cuántas conexiones caben con `limite` descriptores por proceso.
pub fn conexiones_posibles(pedidas: usize, limite: u64) -> usize {
    pedidas.min(limite.saturating_sub(MARGEN_DE_ARCHIVOS) as usize)
}

/// Cuántos hilos dejamos crear al servidor de un hilo por conexión, y por qué
/// ese número. Mira el tope propio (`max_hilos`) y, si existen, los límites
/// del sistema: `kernel/threads-max` (hilos en toda la máquina),
/// `vm/max_map_count` (zonas de memoria por proceso; cada hilo de std ocupa
/// cuatro: su pila y su página de guarda, y la pila alternativa de señales y
/// la suya) y `RLIMIT_NPROC` (procesos e hilos del usuario). De los límites
/// que se comparten con otros procesos usamos la mitad, para no dejar a la
/// máquina sin margen; `max_map_count` es solo de este proceso, así que ahí
/// dejamos 2000 zonas para lo que no son hilos y usamos el resto. Pasarse de
/// `max_map_count` no da un error que se pueda atender: el hilo nuevo no
/// puede preparar su pila alternativa y el proceso aborta.
pub fn tope_de_hilos(pedidas: usize, max_hilos: usize) -> (usize, String) {
    let mut tope = pedidas;
    let mut motivo = String::from("las conexiones pedidas");
    let mut considera = |valor: Option<u64>, por: &str| {
        if let Some(v) = valor {
            let v = v.min(usize::MAX as u64) as usize;
            if v < tope {
                tope = v;
                motivo = por.to_string();
            }
        }
    };
    considera(Some(max_hilos as u64), "el tope propio de la lección (--max-hilos)");
    let lee = |ruta: &str| std::fs::read_to_string(ruta).ok()?.trim().parse::<u64>().ok();
    considera(lee("/proc/sys/kernel/threads-max").map(|v| v / 2), "la mitad de /proc/sys/kernel/threads-max");
    considera(
        lee("/proc/sys/vm/max_map_count").map(|v| v.saturating_sub(2_000) / 4),
        "las zonas de memoria de /proc/sys/vm/max_map_count (4 por hilo, 2000 para lo demás)",
    );
    considera(limite_de_procesos().map(|v| v / 2), "la mitad del límite de procesos (ulimit -u)");
    (tope.max(1), motivo)
}

#[cfg(unix)]
#[allow(clippy::unnecessary_cast)] // `rlim_t` no es `u64` en todas las plataformas
fn limite_de_procesos() -> Option<u64> {
    let mut limite = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit solo escribe en la estructura que le pasamos.
    if unsafe { libc::getrlimit(libc::RLIMIT_NPROC, &mut limite) } != 0 || limite.rlim_cur == libc::RLIM_INFINITY {
        return None;
    }
    Some(limite.rlim_cur as u64)
}

#[cfg(not(unix))]
fn limite_de_procesos() -> Option<u64> {
    None
}

/// El capítulo del libro: cada bloque de Rust se compila como prueba de
/// documentación de este crate, que ya tiene Tokio entre sus dependencias.
#[cfg(doctest)]
#[doc = include_str!("../../../book/03-muchas-tareas.md")]
pub struct CapituloDelLibro;

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn lee_campos_de_proc() {
        let estado = "Name:\tx\nVmSize:\t  4096 kB\nVmRSS:\t  1024 kB\nThreads:\t3\n";
        assert_eq!(valor_en_bytes(estado, "VmRSS"), Some(1024 * 1024));
        assert_eq!(valor_en_bytes(estado, "VmSize"), Some(4096 * 1024));
        assert_eq!(valor_en_bytes(estado, "VmHWM"), None);
    }

    #[test]
    fn opciones() {
        let a = |v: &[&str]| lee_opciones(v.iter().map(|s| s.to_string()));
        assert_eq!(a(&[]).unwrap().conexiones, CONEXIONES);
        assert_eq!(a(&["--rapido"]).unwrap().conexiones, CONEXIONES_RAPIDO);
        assert_eq!(a(&["--conexiones", "500"]).unwrap().conexiones, 500);
        assert_eq!(a(&["--max-hilos", "50"]).unwrap().max_hilos, 50);
        assert_eq!(a(&["--servidor", "hilos"]).unwrap().servidor, Some(Tipo::Hilos));
        assert!(a(&["--servidor", "otro"]).is_err());
        assert!(a(&["--conexiones", "0"]).is_err());
        assert!(a(&["--conexiones"]).is_err());
        assert!(a(&["--hilos"]).unwrap_err().contains("desconocida"));
    }

    #[test]
    fn el_limite_de_archivos_recorta_las_conexiones() {
        assert_eq!(conexiones_posibles(10_000, 1_024), 1_024 - MARGEN_DE_ARCHIVOS as usize);
        assert_eq!(conexiones_posibles(200, 1_024), 200);
        assert_eq!(conexiones_posibles(10, 3), 0);
    }

    #[test]
    fn el_tope_de_hilos_respeta_el_de_la_leccion() {
        let (tope, motivo) = tope_de_hilos(50_000, 300);
        assert!(tope <= 300, "{tope}");
        assert!(!motivo.is_empty());
        assert_eq!(tope_de_hilos(5, 300).0, 5);
    }

    #[test]
    fn cuenta_los_hilos_de_este_proceso() {
        if let Some(n) = hilos_del_proceso() {
            assert!(n >= 1);
        }
    }
}
