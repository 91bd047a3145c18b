//! Lección 09: construye tu propio planificador.
//!
//! `planificador` es el ejecutor de enseñanza en sus dos versiones (una
//! cola con un candado; colas locales con robo de trabajo): el crate de
//! `solutions/09-tu-planificador`, con los ejercicios resueltos, así que lo
//! que mide `banco` es lo mismo que completas en los ejercicios. `cargas` son
//! las cuatro cargas que mide `cargo run -p leccion-09 --release --bin banco`,
//! y `grafica-escalado` dibuja lo medido. Aquí está lo que comparten los dos
//! programas: las opciones, el CSV y el nombre de la máquina.

pub mod cargas;
#[cfg(feature = "traza")]
pub mod trazas;
pub use planificador;

use std::path::PathBuf;

use opciones::clap::{self, Parser};

/// Ejecuciones medidas de cada variante, intercaladas (tras una de
/// calentamiento de cada una).
pub const REPETICIONES: usize = 7;

/// Lo más que se puede pedir con `--hilos`.
pub const MAX_HILOS: usize = 64;
/// Sin `--hilos`, como mucho estos: más no cambia la forma de las curvas y
/// alarga mucho la medida.
pub const HILOS_POR_DEFECTO_MAX: usize = 16;

/// El CSV que escribe `banco` y lee `grafica-escalado`.
pub fn csv_por_defecto() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("resultados/escalado.csv")
}

/// El SVG que escribe `grafica-escalado`, en la carpeta del libro.
pub fn svg_por_defecto() -> PathBuf {
    graficas::svg_del_libro(env!("CARGO_MANIFEST_DIR"), "escalado.svg")
}

/// Los núcleos que ve el programa (`available_parallelism`).
pub fn nucleos() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// El modelo de procesador, de `/proc/cpuinfo`, o `None` si no hay `/proc`.
pub fn modelo_de_cpu() -> Option<String> {
    let texto = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let linea = texto.lines().find(|l| l.starts_with("model name"))?;
    Some(linea.split(':').nth(1)?.trim().to_string())
}

/// Los nombres que acepta `--carga`.
pub const NOMBRES_DE_CARGAS: [&str; 4] = ["lanza-muchas", "abanico", "cede-muchas", "calculo-corto"];

/// Opciones de `banco`.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(about = "Mide las cuatro cargas con los dos ejecutores de enseñanza y con Tokio, de 1 a N hilos.")]
pub struct OpcionesBanco {
    /// Pocos hilos, dos repeticiones y sin CSV salvo que lo pidas (lo que usan las pruebas)
    #[arg(long)]
    pub rapido: bool,
    /// Hasta cuántos hilos trabajadores [por defecto: los núcleos, hasta 16; con --rapido, hasta 2]
    #[arg(long = "hilos", value_name = "N", value_parser = opciones::entre(1, MAX_HILOS))]
    pub hilos_pedidos: Option<usize>,
    /// Ejecuciones medidas de cada variante [por defecto: 7; con --rapido, 2]
    #[arg(long = "repeticiones", value_name = "N", value_parser = opciones::entre(1usize, 50))]
    pub repeticiones_pedidas: Option<usize>,
    /// Dónde escribir el CSV [por defecto, midiendo todo sin --rapido: resultados/escalado.csv]
    #[arg(long = "csv", value_name = "RUTA")]
    pub csv_pedido: Option<PathBuf>,
    /// El nombre de la máquina en el CSV [por defecto: el modelo de /proc/cpuinfo]
    #[arg(long, value_name = "TEXTO")]
    pub maquina: Option<String>,
    /// Solo esta carga (se puede repetir) [por defecto: todas]
    #[arg(long = "carga", value_name = "NOMBRE", value_parser = NOMBRES_DE_CARGAS)]
    pub cargas: Vec<String>,
}

impl OpcionesBanco {
    /// Hasta cuántos hilos trabajadores se mide.
    pub fn hilos(&self) -> usize {
        let por_defecto = nucleos().min(HILOS_POR_DEFECTO_MAX);
        self.hilos_pedidos.unwrap_or(if self.rapido { por_defecto.min(2) } else { por_defecto })
    }

    /// Ejecuciones medidas de cada variante.
    pub fn repeticiones(&self) -> usize {
        self.repeticiones_pedidas.unwrap_or(if self.rapido { 2 } else { REPETICIONES })
    }

    /// Dónde escribir el CSV; `None`: no escribirlo. En modo rápido, o
    /// midiendo solo algunas cargas, no se toca el CSV del repositorio,
    /// salvo que lo pidas.
    pub fn csv(&self) -> Option<PathBuf> {
        let completo = !self.rapido && self.cargas.is_empty();
        self.csv_pedido.clone().or(if completo { Some(csv_por_defecto()) } else { None })
    }
}

/// Una fila del CSV: una combinación (carga, ejecutor, hilos) medida
/// `repeticiones` veces. Tiempos en ms: el de reloj (`ms`) y el de CPU que
/// gastaron entre todos los hilos trabajadores (`cpu_ms`), con su mediana,
/// su mínimo y su máximo. `cpu_por_hilo`: la mediana de cada trabajador.
#[derive(Debug, Clone, PartialEq)]
pub struct Fila {
    pub maquina: String,
    pub nucleos: usize,
    pub carga: String,
    pub ejecutor: String,
    pub hilos: usize,
    pub repeticiones: usize,
    pub ms: f64,
    pub ms_min: f64,
    pub ms_max: f64,
    pub cpu_ms: f64,
    pub cpu_min: f64,
    pub cpu_max: f64,
    pub cpu_por_hilo: Vec<f64>,
}

pub const CABECERA: &str =
    "maquina,nucleos,carga,ejecutor,hilos,repeticiones,ms,ms_min,ms_max,cpu_ms,cpu_min,cpu_max,cpu_por_hilo";

impl Fila {
    pub fn a_csv(&self) -> String {
        // Sin comas dentro de los campos: así el CSV se lee con un `split`.
        let maquina = self.maquina.replace(',', " ");
        let por_hilo: Vec<String> = self.cpu_por_hilo.iter().map(|c| format!("{c:.2}")).collect();
        format!(
            "{maquina},{},{},{},{},{},{:.2},{:.2},{:.2},{:.2},{:.2},{:.2},{}",
            self.nucleos,
            self.carga,
            self.ejecutor,
            self.hilos,
            self.repeticiones,
            self.ms,
            self.ms_min,
            self.ms_max,
            self.cpu_ms,
            self.cpu_min,
            self.cpu_max,
            por_hilo.join(";")
        )
    }

    pub fn de_csv(linea: &str) -> Result<Fila, String> {
        let campos: Vec<&str> = linea.split(',').collect();
        let [
            maquina,
            nucleos,
            carga,
            ejecutor,
            hilos,
            repeticiones,
            ms,
            ms_min,
            ms_max,
            cpu,
            cpu_min,
            cpu_max,
            por_hilo,
        ] = campos[..]
        else {
            return Err(format!("se esperaban 13 campos en «{linea}»"));
        };
        let n = |s: &str| s.trim().parse::<usize>().map_err(|_| format!("«{s}» no es un número entero en «{linea}»"));
        let x = |s: &str| s.trim().parse::<f64>().map_err(|_| format!("«{s}» no es un número en «{linea}»"));
        Ok(Fila {
            maquina: maquina.to_string(),
            nucleos: n(nucleos)?,
            carga: carga.to_string(),
            ejecutor: ejecutor.to_string(),
            hilos: n(hilos)?,
            repeticiones: n(repeticiones)?,
            ms: x(ms)?,
            ms_min: x(ms_min)?,
            ms_max: x(ms_max)?,
            cpu_ms: x(cpu)?,
            cpu_min: x(cpu_min)?,
            cpu_max: x(cpu_max)?,
            cpu_por_hilo: por_hilo.split(';').filter(|c| !c.trim().is_empty()).map(x).collect::<Result<_, _>>()?,
        })
    }
}

/// Lee las filas de un CSV con cabecera.
pub fn lee_csv(texto: &str) -> Result<Vec<Fila>, String> {
    let mut lineas = texto.lines().filter(|l| !l.trim().is_empty());
    match lineas.next() {
        Some(c) if c.trim() == CABECERA => {}
        _ => return Err(format!("la primera línea debe ser «{CABECERA}»")),
    }
    lineas.map(Fila::de_csv).collect()
}

/// Junta filas nuevas con las de un CSV anterior: las de otras máquinas se
/// quedan; las de esta misma máquina (mismo nombre y núcleos) se sustituyen.
pub fn junta_filas(anteriores: Vec<Fila>, nuevas: &[Fila]) -> Vec<Fila> {
    let mismas = |a: &Fila| nuevas.iter().any(|n| n.maquina == a.maquina && n.nucleos == a.nucleos);
    let mut todas: Vec<Fila> = anteriores.into_iter().filter(|a| !mismas(a)).collect();
    todas.extend_from_slice(nuevas);
    todas
}

/// ¿Se distinguen dos variantes? Solo si sus intervalos [mín, máx] no se
/// tocan: una diferencia de medianas que cabe dentro del ruido no cuenta.
pub fn se_distinguen(a: (f64, f64), b: (f64, f64)) -> bool {
    a.1 < b.0 || b.1 < a.0
}

/// El tiempo de CPU (en ms) que lleva gastado cada hilo de este proceso
/// cuyo nombre empieza por `prefijo`, por identificador de hilo. Lo lee de
/// `/proc/self/task/<tid>/schedstat` (nanosegundos) o, si no está, de
/// `/proc/self/task/<tid>/stat` (`utime + stime`, en tics de 10 ms). Fuera
/// de Linux, vacío.
pub fn cpu_de_hilos(prefijo: &str) -> Vec<(u32, f64)> {
    let Ok(tareas) = std::fs::read_dir("/proc/self/task") else { return Vec::new() };
    let mut hilos = Vec::new();
    for entrada in tareas.flatten() {
        let ruta = entrada.path();
        let Some(tid) = entrada.file_name().to_str().and_then(|t| t.parse::<u32>().ok()) else { continue };
        let nombre = std::fs::read_to_string(ruta.join("comm")).unwrap_or_default();
        if !nombre.trim_end().starts_with(prefijo) {
            continue;
        }
        let ms = std::fs::read_to_string(ruta.join("schedstat"))
            .ok()
            .and_then(|t| t.split_whitespace().next()?.parse::<f64>().ok())
            .map(|ns| ns / 1e6)
            .or_else(|| {
                let stat = std::fs::read_to_string(ruta.join("stat")).ok()?;
                // Tras el nombre entre paréntesis: utime y stime son los campos 14 y 15.
                let resto = &stat[stat.rfind(')')? + 2..];
                let campos: Vec<&str> = resto.split_whitespace().collect();
                let tics: f64 = campos.get(11)?.parse::<f64>().ok()? + campos.get(12)?.parse::<f64>().ok()?;
                Some(tics * 10.0)
            });
        if let Some(ms) = ms {
            hilos.push((tid, ms));
        }
    }
    hilos.sort_by_key(|h| h.0);
    hilos
}

/// El capítulo del libro: cada bloque de Rust se compila como prueba de
/// documentación de este crate.
#[cfg(doctest)]
#[doc = include_str!("../../../book/09-tu-planificador.md")]
pub struct CapituloDelLibro;

#[cfg(test)]
mod pruebas {
    use super::*;

    fn a(v: &[&str]) -> Result<OpcionesBanco, String> {
        opciones::lee(v.iter().copied())
    }

    #[test]
    fn opciones_del_banco() {
        let o = a(&[]).unwrap();
        assert!(!o.rapido && o.repeticiones() == REPETICIONES && o.csv() == Some(csv_por_defecto()));
        assert!(o.hilos() >= 1 && o.hilos() <= HILOS_POR_DEFECTO_MAX);
        let r = a(&["--rapido"]).unwrap();
        assert!(r.rapido && r.repeticiones() == 2 && r.csv().is_none() && r.hilos() <= 2);
        let r = a(&["--rapido", "--hilos", "3", "--csv", "x.csv"]).unwrap();
        assert_eq!((r.hilos(), r.csv()), (3, Some(PathBuf::from("x.csv"))));
        assert_eq!(a(&["--maquina", "portátil"]).unwrap().maquina.as_deref(), Some("portátil"));
        assert!(a(&["--hilos", "0"]).is_err());
        assert!(a(&["--hilos", "65"]).is_err());
        assert!(a(&["--hilos"]).is_err());
        assert!(a(&["--repeticiones", "x"]).is_err());
        assert_eq!(a(&["--repeticiones", "3"]).unwrap().repeticiones(), 3);
        assert!(a(&["--lento"]).unwrap_err().contains("desconocida"));
        let c = a(&["--carga", "abanico"]).unwrap();
        assert_eq!((c.cargas.clone(), c.csv()), (vec!["abanico".to_string()], None));
        assert!(a(&["--carga", "fibonacci"]).is_err());
    }

    #[test]
    fn el_csv_va_y_vuelve() {
        let f = Fila {
            maquina: "AMD, EPYC".into(),
            nucleos: 2,
            carga: "abanico".into(),
            ejecutor: "robo".into(),
            hilos: 2,
            repeticiones: 7,
            ms: 12.345,
            ms_min: 11.0,
            ms_max: 14.0,
            cpu_ms: 20.0,
            cpu_min: 19.5,
            cpu_max: 22.25,
            cpu_por_hilo: vec![12.0, 8.0],
        };
        let linea = f.a_csv();
        assert_eq!(linea, "AMD  EPYC,2,abanico,robo,2,7,12.35,11.00,14.00,20.00,19.50,22.25,12.00;8.00");
        let leida = lee_csv(&format!("{CABECERA}\n{linea}\n")).unwrap();
        assert_eq!((leida[0].ms, leida[0].cpu_por_hilo.clone()), (12.35, vec![12.0, 8.0]));
        assert!(lee_csv("a,b\n").is_err());
        assert!(lee_csv(&format!("{CABECERA}\nx,2,abanico,robo,dos,7,1,1,1,1,1,1,1\n")).is_err());
    }

    #[test]
    fn juntar_sustituye_solo_la_misma_maquina() {
        let fila = |m: &str, n, ms| Fila {
            maquina: m.into(),
            nucleos: n,
            carga: "c".into(),
            ejecutor: "e".into(),
            hilos: 1,
            repeticiones: 5,
            ms,
            ms_min: ms,
            ms_max: ms,
            cpu_ms: ms,
            cpu_min: ms,
            cpu_max: ms,
            cpu_por_hilo: vec![ms],
        };
        let juntas = junta_filas(vec![fila("A", 2, 1.0), fila("B", 16, 2.0)], &[fila("A", 2, 3.0)]);
        assert_eq!(juntas, vec![fila("B", 16, 2.0), fila("A", 2, 3.0)]);
    }

    #[test]
    fn dos_variantes_solo_se_distinguen_si_sus_intervalos_no_se_tocan() {
        assert!(se_distinguen((1.0, 2.0), (2.5, 3.0)));
        assert!(se_distinguen((2.5, 3.0), (1.0, 2.0)));
        assert!(!se_distinguen((1.0, 2.6), (2.5, 3.0)), "se solapan: no se distinguen");
    }

    #[test]
    fn el_tiempo_de_cpu_de_los_hilos_con_nombre() {
        if !std::path::Path::new("/proc/self/task").exists() {
            return; // fuera de Linux no hay nada que leer
        }
        let hilo = std::thread::Builder::new()
            .name("prueba-cpu".into())
            .spawn(|| {
                let mut x = 0u64;
                for i in 0..5_000_000u64 {
                    x = std::hint::black_box(x.wrapping_add(i));
                }
                let visto = cpu_de_hilos("prueba-cpu");
                (x, visto)
            })
            .unwrap();
        let (_, visto) = hilo.join().unwrap();
        assert_eq!(visto.len(), 1, "el hilo se ve a sí mismo por su nombre: {visto:?}");
        assert!(visto[0].1 > 0.0, "y ha gastado algo de CPU: {visto:?}");
        assert!(cpu_de_hilos("ningun-hilo-se-llama-asi").is_empty());
    }
}
