//! Lección 18: un hilo por núcleo de verdad.
//!
//! `cargo run -p leccion-18 --release` construye un mismo servicio (un eco
//! por TCP) de tres maneras, cada una en su propio proceso: Tokio multihilo;
//! N *runtimes* de Tokio de un hilo, fijados a sus núcleos y con
//! `SO_REUSEPORT`; y lo mismo con un anillo de `io_uring` por hilo, si el
//! sistema lo permite. Un generador de carga abierta, por loopback, mide cada
//! una a varias cargas fijas, cinco veces y en orden alternado. Después
//! cuenta, por petición, las llamadas al sistema del servidor (`perf stat`)
//! y sus cambios de contexto (`getrusage`), y al final cuántas veces el
//! sistema cambia de núcleo a un hilo, fijado o libre (`se.nr_migrations`).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[cfg(target_os = "linux")]
pub mod anillo;
pub mod carga;
pub mod grafica;
pub mod llamadas;
pub mod servidores;
pub mod sistema;

pub use servidores::Servidor;

/// La mediana, el mínimo y el máximo de `medidas`, en ese orden, como un
/// arreglo (lo que comparan [`se_solapan`] y la gráfica); `None` si no hay valores.
pub fn resumen(xs: Vec<f64>) -> Option<[f64; 3]> {
    medidas::mediana_y_extremos(&xs).map(|(mediana, minimo, maximo)| [mediana, minimo, maximo])
}

/// ¿Se solapan dos rangos [mínimo, máximo]? Si se solapan, la diferencia
/// entre sus medianas no se distingue aquí.
pub fn se_solapan(a: [f64; 3], b: [f64; 3]) -> bool {
    a[1] <= b[2] && b[1] <= a[2]
}

/// Una ejecución: un servidor a una carga.
#[derive(Debug, Clone, PartialEq)]
pub struct Fila {
    pub repeticion: u32,
    pub servidor: Servidor,
    /// Peticiones por segundo ofrecidas.
    pub ritmo: u64,
    pub enviadas: u64,
    pub recibidas: u64,
    pub rendimiento: f64,
    pub p50_us: u64,
    pub p99_us: u64,
}

pub const CABECERA: &str = "repeticion,servidor,ritmo,enviadas,recibidas,rendimiento_por_s,p50_us,p99_us";

impl Fila {
    pub fn a_csv(&self) -> String {
        format!(
            "{},{},{},{},{},{:.0},{},{}",
            self.repeticion,
            self.servidor.nombre(),
            self.ritmo,
            self.enviadas,
            self.recibidas,
            self.rendimiento,
            self.p50_us,
            self.p99_us
        )
    }

    pub fn desde_csv(linea: &str) -> Result<Fila, String> {
        let c: Vec<&str> = linea.trim().split(',').collect();
        if c.len() != 8 {
            return Err(format!("esperaba 8 columnas y hay {}: «{linea}»", c.len()));
        }
        let entero = |s: &str| s.parse::<u64>().map_err(|_| format!("«{s}» no es un número entero"));
        Ok(Fila {
            repeticion: entero(c[0])? as u32,
            servidor: Servidor::desde_nombre(c[1]).ok_or(format!("servidor desconocido «{}»", c[1]))?,
            ritmo: entero(c[2])?,
            enviadas: entero(c[3])?,
            recibidas: entero(c[4])?,
            rendimiento: c[5].parse().map_err(|_| format!("«{}» no es un número", c[5]))?,
            p50_us: entero(c[6])?,
            p99_us: entero(c[7])?,
        })
    }
}

/// Lee un CSV entero (con su cabecera).
pub fn lee_csv(texto: &str) -> Result<Vec<Fila>, String> {
    let mut lineas = texto.lines().filter(|l| !l.trim().is_empty());
    match lineas.next() {
        Some(c) if c.trim() == CABECERA => {}
        _ => return Err(format!("la primera línea debe ser «{CABECERA}»")),
    }
    lineas.map(Fila::desde_csv).collect()
}

/// Donde la lección escribe su CSV.
pub fn csv_por_defecto() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("resultados").join("carga.csv")
}

/// Donde `grafica-latencia-carga` escribe el SVG que muestra el libro.
pub fn svg_por_defecto() -> PathBuf {
    graficas::svg_del_libro(env!("CARGO_MANIFEST_DIR"), "latencia-carga.svg")
}

// ANCHOR: migraciones
/// Un hilo calcula durante `duracion` y devuelve cuántas veces lo cambió de
/// núcleo el sistema: la diferencia de `se.nr_migrations` de su
/// `/proc/thread-self/sched`, que el kernel cuenta en cada cambio (mirar en
/// qué núcleo está, de vez en cuando, se perdería las idas y vueltas entre
/// dos miradas). Con `fijar`, antes se fija al núcleo `nucleo`. `None` si el
/// sistema no da la cuenta.
pub fn cuenta_migraciones(fijar: Option<usize>, duracion: Duration) -> Option<u64> {
    if let Some(nucleo) = fijar {
        let _ = sistema::fija_hilo_a(nucleo);
    }
    let antes = sistema::migraciones_del_hilo()?;
    let inicio = Instant::now();
    let mut x = 1u64;
    while inicio.elapsed() < duracion {
        for _ in 0..1_000 {
            x = std::hint::black_box(x.rotate_left(7) ^ 0x9E37_79B9_7F4A_7C15);
        }
    }
    Some(sistema::migraciones_del_hilo()? - antes)
}
// ANCHOR_END: migraciones

/// El capítulo del libro: cada bloque de Rust se compila como prueba de
/// documentación de este crate.
#[cfg(doctest)]
#[doc = include_str!("../../../book/18-hilo-por-nucleo.md")]
pub struct CapituloDelLibro;

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn resumen_y_solapes() {
        assert_eq!(resumen(vec![3.0, 1.0, 2.0]), Some([2.0, 1.0, 3.0]));
        assert_eq!(resumen(vec![4.0, 1.0, 2.0, 3.0]), Some([2.5, 1.0, 4.0]));
        assert!(se_solapan([2.0, 1.0, 3.0], [4.0, 3.0, 5.0]));
        assert!(!se_solapan([2.0, 1.0, 2.5], [4.0, 3.0, 5.0]));
    }

    #[test]
    fn el_csv_va_y_vuelve() {
        let f = Fila {
            repeticion: 2,
            servidor: Servidor::TokioPorNucleo,
            ritmo: 10_000,
            enviadas: 10_000,
            recibidas: 9_990,
            rendimiento: 9_950.0,
            p50_us: 80,
            p99_us: 900,
        };
        let texto = format!("{CABECERA}\n{}\n", f.a_csv());
        assert_eq!(lee_csv(&texto).unwrap(), vec![f]);
    }

    #[test]
    fn varias_escuchas_en_el_mismo_puerto() {
        let escuchas = sistema::escuchas_compartidas(3, "127.0.0.1:0".parse().unwrap()).unwrap();
        let puerto = escuchas[0].local_addr().unwrap().port();
        assert!(escuchas.iter().all(|e| e.local_addr().unwrap().port() == puerto));
    }
}
