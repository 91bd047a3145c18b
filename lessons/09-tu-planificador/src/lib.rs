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
pub use planificador;

use std::path::PathBuf;

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
    let raiz = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("lessons/NN/ está dentro del repositorio");
    raiz.join("book/graficas/escalado.svg")
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

/// Opciones de `banco`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpcionesBanco {
    pub rapido: bool,
    pub hilos: usize,
    pub repeticiones: usize,
    /// Dónde escribir el CSV; `None`: no escribirlo.
    pub csv: Option<PathBuf>,
    pub maquina: Option<String>,
    /// Solo estas cargas (por nombre); vacío: todas.
    pub cargas: Vec<String>,
}

/// Los nombres que acepta `--carga`.
pub const NOMBRES_DE_CARGAS: [&str; 4] = ["lanza-muchas", "abanico", "cede-muchas", "calculo-corto"];

fn numero(nombre: &str, valor: Option<String>, max: usize) -> Result<usize, String> {
    let valor = valor.ok_or(format!("falta el número después de {nombre}"))?;
    match valor.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!("{nombre} espera un número entre 1 y {max}, no «{valor}»")),
    }
}

/// `--rapido`, `--hilos N`, `--repeticiones N`, `--csv RUTA`, `--maquina TEXTO`.
pub fn lee_opciones_banco(args: impl IntoIterator<Item = String>) -> Result<OpcionesBanco, String> {
    let mut o = OpcionesBanco {
        rapido: false,
        hilos: nucleos().min(HILOS_POR_DEFECTO_MAX),
        repeticiones: 5,
        csv: None,
        maquina: None,
        cargas: Vec::new(),
    };
    let mut hilos_pedidos = None;
    let mut repeticiones_pedidas = None;
    let mut csv_pedido = None;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rapido" => o.rapido = true,
            "--hilos" => hilos_pedidos = Some(numero("--hilos", args.next(), MAX_HILOS)?),
            "--repeticiones" => repeticiones_pedidas = Some(numero("--repeticiones", args.next(), 50)?),
            "--csv" => csv_pedido = Some(PathBuf::from(args.next().ok_or("falta la ruta después de --csv")?)),
            "--maquina" => o.maquina = Some(args.next().ok_or("falta el texto después de --maquina")?),
            "--carga" => {
                let carga = args.next().ok_or("falta el nombre después de --carga")?;
                if !NOMBRES_DE_CARGAS.contains(&carga.as_str()) {
                    return Err(format!("--carga espera una de {NOMBRES_DE_CARGAS:?}, no «{carga}»"));
                }
                o.cargas.push(carga);
            }
            otro => {
                return Err(format!(
                    "opción desconocida «{otro}»; usa --rapido, --hilos N (hasta {MAX_HILOS}), \
                     --repeticiones N, --carga NOMBRE, --csv RUTA o --maquina TEXTO"
                ));
            }
        }
    }
    if o.rapido {
        o.hilos = o.hilos.min(2);
        o.repeticiones = 1;
    }
    o.hilos = hilos_pedidos.unwrap_or(o.hilos);
    o.repeticiones = repeticiones_pedidas.unwrap_or(o.repeticiones);
    // En modo rápido, o midiendo solo algunas cargas, no se toca el CSV del
    // repositorio, salvo que lo pidas.
    let completo = !o.rapido && o.cargas.is_empty();
    o.csv = csv_pedido.or(if completo { Some(csv_por_defecto()) } else { None });
    Ok(o)
}

/// Opciones de `grafica-escalado`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpcionesGrafica {
    pub csv: PathBuf,
    pub svg: PathBuf,
}

/// `--csv RUTA`, `--svg RUTA`.
pub fn lee_opciones_grafica(args: impl IntoIterator<Item = String>) -> Result<OpcionesGrafica, String> {
    let mut o = OpcionesGrafica { csv: csv_por_defecto(), svg: svg_por_defecto() };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--csv" => o.csv = PathBuf::from(args.next().ok_or("falta la ruta después de --csv")?),
            "--svg" => o.svg = PathBuf::from(args.next().ok_or("falta la ruta después de --svg")?),
            otro => return Err(format!("opción desconocida «{otro}»; usa --csv RUTA o --svg RUTA")),
        }
    }
    Ok(o)
}

/// Una fila del CSV: `maquina,nucleos,carga,ejecutor,hilos,ms`.
#[derive(Debug, Clone, PartialEq)]
pub struct Fila {
    pub maquina: String,
    pub nucleos: usize,
    pub carga: String,
    pub ejecutor: String,
    pub hilos: usize,
    pub ms: f64,
}

pub const CABECERA: &str = "maquina,nucleos,carga,ejecutor,hilos,ms";

impl Fila {
    pub fn a_csv(&self) -> String {
        // Sin comas dentro de los campos: así el CSV se lee con un `split`.
        let maquina = self.maquina.replace(',', " ");
        format!("{maquina},{},{},{},{},{:.2}", self.nucleos, self.carga, self.ejecutor, self.hilos, self.ms)
    }

    pub fn de_csv(linea: &str) -> Result<Fila, String> {
        let campos: Vec<&str> = linea.split(',').collect();
        let [maquina, nucleos, carga, ejecutor, hilos, ms] = campos[..] else {
            return Err(format!("se esperaban 6 campos en «{linea}»"));
        };
        let n = |s: &str| s.trim().parse::<usize>().map_err(|_| format!("«{s}» no es un número entero en «{linea}»"));
        Ok(Fila {
            maquina: maquina.to_string(),
            nucleos: n(nucleos)?,
            carga: carga.to_string(),
            ejecutor: ejecutor.to_string(),
            hilos: n(hilos)?,
            ms: ms.trim().parse().map_err(|_| format!("«{ms}» no es un número en «{linea}»"))?,
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

/// La mediana de unas medidas (no vacías).
pub fn mediana(mut medidas: Vec<f64>) -> f64 {
    medidas.sort_by(f64::total_cmp);
    let n = medidas.len();
    if n % 2 == 1 { medidas[n / 2] } else { (medidas[n / 2 - 1] + medidas[n / 2]) / 2.0 }
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
        lee_opciones_banco(v.iter().map(|s| s.to_string()))
    }

    #[test]
    fn opciones_del_banco() {
        let o = a(&[]).unwrap();
        assert!(!o.rapido && o.repeticiones == 5 && o.csv == Some(csv_por_defecto()));
        assert!(o.hilos >= 1 && o.hilos <= HILOS_POR_DEFECTO_MAX);
        let r = a(&["--rapido"]).unwrap();
        assert!(r.rapido && r.repeticiones == 1 && r.csv.is_none() && r.hilos <= 2);
        let r = a(&["--rapido", "--hilos", "3", "--csv", "x.csv"]).unwrap();
        assert_eq!((r.hilos, r.csv), (3, Some(PathBuf::from("x.csv"))));
        assert_eq!(a(&["--maquina", "portátil"]).unwrap().maquina.as_deref(), Some("portátil"));
        assert!(a(&["--hilos", "0"]).is_err());
        assert!(a(&["--hilos", "65"]).is_err());
        assert!(a(&["--hilos"]).is_err());
        assert!(a(&["--repeticiones", "x"]).is_err());
        assert!(a(&["--lento"]).unwrap_err().contains("desconocida"));
        let c = a(&["--carga", "abanico"]).unwrap();
        assert_eq!((c.cargas, c.csv), (vec!["abanico".to_string()], None));
        assert!(a(&["--carga", "fibonacci"]).is_err());
    }

    #[test]
    fn opciones_de_la_grafica() {
        let g = |v: &[&str]| lee_opciones_grafica(v.iter().map(|s| s.to_string()));
        assert_eq!(g(&[]).unwrap().svg, svg_por_defecto());
        assert_eq!(g(&["--svg", "a.svg"]).unwrap().svg, PathBuf::from("a.svg"));
        assert!(g(&["--csv"]).is_err());
        assert!(g(&["--png"]).unwrap_err().contains("desconocida"));
    }

    #[test]
    fn el_csv_va_y_vuelve() {
        let f = Fila {
            maquina: "AMD, EPYC".into(),
            nucleos: 2,
            carga: "abanico".into(),
            ejecutor: "robo".into(),
            hilos: 2,
            ms: 12.345,
        };
        let linea = f.a_csv();
        assert_eq!(linea, "AMD  EPYC,2,abanico,robo,2,12.35");
        let leida = lee_csv(&format!("{CABECERA}\n{linea}\n")).unwrap();
        assert_eq!(leida[0].ms, 12.35);
        assert!(lee_csv("a,b\n").is_err());
        assert!(lee_csv(&format!("{CABECERA}\nx,2,abanico,robo,dos,1\n")).is_err());
    }

    #[test]
    fn juntar_sustituye_solo_la_misma_maquina() {
        let fila = |m: &str, n, ms| Fila {
            maquina: m.into(),
            nucleos: n,
            carga: "c".into(),
            ejecutor: "e".into(),
            hilos: 1,
            ms,
        };
        let juntas = junta_filas(vec![fila("A", 2, 1.0), fila("B", 16, 2.0)], &[fila("A", 2, 3.0)]);
        assert_eq!(juntas, vec![fila("B", 16, 2.0), fila("A", 2, 3.0)]);
    }

    #[test]
    fn la_mediana() {
        assert_eq!(mediana(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(mediana(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
    }
}
