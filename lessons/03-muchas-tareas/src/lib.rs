//! Lección 03: async, muchas tareas sobre pocos hilos.
//!
//! `cargo run -p leccion-03 --release` abre diez mil conexiones por
//! 127.0.0.1 contra dos servidores de eco, uno con Tokio y otro con un hilo
//! por conexión, y compara los hilos y la memoria de cada uno. Los dos
//! servidores están en [`servidores`]; aquí está lo demás: las opciones y
//! los límites del sistema (leídos con `medidas`).

pub mod servidores;

use opciones::clap::{self, Parser, ValueEnum};

/// Los dos servidores que compara la lección.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
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
/// Las conexiones de `--rapido` (el «200» de [`Opciones::conexiones`]).
pub const CONEXIONES_RAPIDO: usize = 200;
/// El tope de `--conexiones`. El límite de archivos abiertos suele mandar antes.
pub const MAX_CONEXIONES: usize = 100_000;
/// El tope propio de hilos del servidor de un hilo por conexión: con diez
/// mil ya se ve todo lo que hay que ver, y más podría ahogar una máquina
/// pequeña. `--max-hilos` lo cambia.
pub const MAX_HILOS: usize = 10_000;

/// Opciones de la lección, leídas de la línea de órdenes.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(
    name = "leccion-03",
    about = "Diez mil conexiones contra un servidor de Tokio y otro de un hilo por conexión."
)]
pub struct Opciones {
    /// 200 conexiones (lo que usan las pruebas)
    #[arg(long)]
    pub rapido: bool,
    /// Cuántas conexiones abre el cliente contra cada servidor
    #[arg(long, value_name = "N", default_value_t = CONEXIONES,
          default_value_if("rapido", "true", "200"),
          value_parser = opciones::entre(1, MAX_CONEXIONES))]
    pub conexiones: usize,
    /// El tope de hilos del servidor de un hilo por conexión
    #[arg(long, value_name = "M", default_value_t = MAX_HILOS, value_parser = opciones::entre(1, MAX_CONEXIONES))]
    pub max_hilos: usize,
    /// Modo interno: este proceso es el servidor que pide el cliente
    #[arg(long, value_name = "TIPO", hide = true)]
    pub servidor: Option<Tipo>,
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
/// del sistema que lee [`medidas::Limites`]: de los que se comparten con
/// otros procesos (`threads-max`, `pid_max`, `RLIMIT_NPROC`, `pids.max`)
/// usamos la mitad, para no dejar a la máquina sin margen; `max_map_count`
/// es solo de este proceso, así que ahí dejamos zonas para lo que no son
/// hilos y usamos el resto. Pasarse de `max_map_count` no da un error que se
/// pueda atender: el hilo nuevo no puede preparar su pila alternativa y el
/// proceso aborta.
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
    let limites = medidas::Limites::de_esta_maquina();
    if let Some((v, nombre)) = limites.mas_estricto() {
        considera(Some(v / 2), &format!("la mitad de {nombre}, un límite que se comparte con el resto del sistema"));
    }
    considera(
        limites.hilos_por_zonas(),
        &format!(
            "las zonas de memoria de /proc/sys/vm/max_map_count ({} por hilo, {} para lo demás)",
            medidas::ZONAS_POR_HILO,
            medidas::ZONAS_PARA_LO_DEMAS
        ),
    );
    (tope.max(1), motivo)
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
    fn opciones() {
        let a = |v: &[&str]| opciones::lee::<Opciones>(v.iter().copied());
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
        if let Some(n) = medidas::hilos_del_proceso() {
            assert!(n >= 1);
        }
    }
}
