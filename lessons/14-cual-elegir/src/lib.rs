//! Lección 14: ¿cuál elegir?
//!
//! `cargo run -p leccion-14 --release` somete el mismo servicio clave-valor a
//! la misma carga, por encima de su capacidad, con cinco variantes de cuatro
//! diseños: Tokio sin límite, Tokio con un `Semaphore` (de dos tamaños),
//! Rayon y el runtime `nucleo` de la lección 12. Repite cada medida (cinco
//! veces por defecto), alternando el orden de las variantes. Cada diseño corre en su propio proceso, para que el pico de
//! memoria de uno no se mezcle con el de otro. Aquí está lo común: la carga,
//! las medidas y el formato del CSV que dibuja
//! `cargo run -p leccion-14 --bin grafica-comparacion`.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub mod grafica;
pub mod variantes;

/// Un mebibyte, en bytes.
pub const MIB: u64 = 1024 * 1024;

/// Las variantes que compara la lección.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variante {
    /// Una tarea de Tokio por petición, sin ningún límite.
    TokioSinLimite,
    /// Una tarea de Tokio por petición, solo si hay un permiso libre.
    TokioSemaforo,
    /// Lo mismo, con la mitad de permisos: tantos como buzones tiene `nucleo`.
    TokioSemaforoMitad,
    /// Un `rayon::spawn` por petición, sin límite.
    Rayon,
    /// Un mensaje por petición al shard de su clave, en `nucleo`.
    Nucleo,
}

impl Variante {
    /// Todas, en el orden en que se imprimen.
    pub const TODAS: [Variante; 5] = [
        Variante::TokioSinLimite,
        Variante::TokioSemaforo,
        Variante::TokioSemaforoMitad,
        Variante::Rayon,
        Variante::Nucleo,
    ];

    /// El nombre de la columna `variante` del CSV (y de `--variante`).
    pub fn nombre(self) -> &'static str {
        match self {
            Variante::TokioSinLimite => "tokio_sin_limite",
            Variante::TokioSemaforo => "tokio_semaforo",
            Variante::TokioSemaforoMitad => "tokio_semaforo_mitad",
            Variante::Rayon => "rayon",
            Variante::Nucleo => "nucleo",
        }
    }

    /// La etiqueta que se imprime y se dibuja.
    pub fn etiqueta(self) -> &'static str {
        match self {
            Variante::TokioSinLimite => "Tokio, spawn sin límite",
            Variante::TokioSemaforo => "Tokio con Semaphore",
            Variante::TokioSemaforoMitad => "Tokio con Semaphore/2",
            Variante::Rayon => "Rayon, spawn sin límite",
            Variante::Nucleo => "nucleo (un hilo por núcleo)",
        }
    }

    /// La variante cuyo nombre es `nombre`.
    pub fn desde_nombre(nombre: &str) -> Option<Variante> {
        Variante::TODAS.into_iter().find(|v| v.nombre() == nombre)
    }
}

/// Cómo se reparten las claves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Escenario {
    /// Claves al azar entre [`CLAVES`].
    Uniforme,
    /// Tres de cada cuatro peticiones, a la clave 0; el resto, al azar.
    Caliente,
    /// Claves al azar, pero el cálculo varía: una de cada diez peticiones
    /// tarda 11 veces lo que las demás (la media es la misma).
    Variable,
}

impl Escenario {
    pub const TODOS: [Escenario; 3] = [Escenario::Uniforme, Escenario::Caliente, Escenario::Variable];

    pub fn nombre(self) -> &'static str {
        match self {
            Escenario::Uniforme => "uniforme",
            Escenario::Caliente => "caliente",
            Escenario::Variable => "variable",
        }
    }

    /// Las rondas de cálculo de la petición número `i`. En media, siempre
    /// [`RONDAS`].
    pub fn rondas(self, i: usize) -> u32 {
        match self {
            Escenario::Variable if i.is_multiple_of(10) => RONDAS / 2 * 11,
            Escenario::Variable => RONDAS / 2,
            _ => RONDAS,
        }
    }

    pub fn desde_nombre(nombre: &str) -> Option<Escenario> {
        Escenario::TODOS.into_iter().find(|e| e.nombre() == nombre)
    }
}

/// Lo que define una ejecución.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Cómo se reparten las claves.
    pub escenario: Escenario,
    /// Hilos trabajadores (Tokio, Rayon) o shards (`nucleo`).
    pub hilos: usize,
    /// Peticiones por segundo que ofrece el generador.
    pub ritmo: f64,
    /// Cuánto tiempo ofrece carga.
    pub duracion: Duration,
    /// Permisos del `Semaphore` (peticiones a la vez, como mucho).
    pub limite: usize,
    /// Permisos del `Semaphore` pequeño: tantos como buzones de `nucleo`.
    pub limite_mitad: usize,
    /// Capacidad de la cola de cada shard en `nucleo`.
    pub cola: usize,
    /// Capacidad del buzón de cada isolate en `nucleo`.
    pub buzon: usize,
}

impl Config {
    /// Con los límites de la lección: el semáforo admite tantas peticiones a la
    /// vez como caben, en total, en las colas y buzones de `nucleo`.
    pub fn con(escenario: Escenario, hilos: usize, ritmo: f64, duracion: Duration) -> Config {
        let (cola, buzon) = (256, 256);
        Config {
            escenario,
            hilos,
            ritmo,
            duracion,
            limite: hilos * (cola + buzon),
            limite_mitad: hilos * buzon,
            cola,
            buzon,
        }
    }

    /// Cuántas peticiones ofrece en total.
    pub fn peticiones(&self) -> usize {
        (self.ritmo * self.duracion.as_secs_f64()).ceil() as usize
    }
}

/// Cuántas claves distintas usa la carga.
pub const CLAVES: u64 = 100_000;
/// Las rondas de cálculo de cada petición.
pub const RONDAS: u32 = 16_000;

// ANCHOR: peticion
/// Una petición: su número, su clave, cuánto cálculo lleva y cuándo debía
/// salir, en microsegundos desde el inicio (la hora del plan, no la del
/// envío: si el generador se retrasa, ese retraso también cuenta como espera).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Peticion {
    pub i: usize,
    pub clave: u64,
    pub rondas: u32,
    pub nacida_us: u64,
}
// ANCHOR_END: peticion

/// El cálculo de una petición: `rondas` vueltas, unos microsegundos de CPU.
pub fn trabaja(mut x: u64, rondas: u32) -> u64 {
    for _ in 0..rondas {
        x = black_box(x.rotate_left(5) ^ 0x9E37_79B9_7F4A_7C15).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    }
    x
}

/// Cuántas peticiones por segundo hace un núcleo, medido aquí mismo: la
/// mejor de cinco medidas cortas. En una máquina compartida, el ruido solo
/// puede hacer que una medida salga más lenta, así que la mejor es la que
/// más se acerca a lo que da el núcleo.
pub fn capacidad_por_nucleo() -> f64 {
    let n = 1_000;
    (0..5)
        .map(|_| {
            let inicio = Instant::now();
            for i in 0..n {
                black_box(trabaja(i, RONDAS));
            }
            n as f64 / inicio.elapsed().as_secs_f64()
        })
        .fold(0.0, f64::max)
}

/// Dónde anota cada diseño lo que tardó cada petición. Es un instrumento de
/// medida, igual para los cuatro: no forma parte de ninguno.
pub struct Registro {
    pub inicio: Instant,
    latencias: Vec<AtomicU64>,
    completadas: AtomicU64,
    ultima_us: AtomicU64,
}

const SIN_COMPLETAR: u64 = u64::MAX;

impl Registro {
    pub fn new(peticiones: usize) -> Registro {
        Registro {
            inicio: Instant::now(),
            latencias: (0..peticiones).map(|_| AtomicU64::new(SIN_COMPLETAR)).collect(),
            completadas: AtomicU64::new(0),
            ultima_us: AtomicU64::new(0),
        }
    }

    /// Anota que la petición `p` terminó ahora.
    pub fn completa(&self, p: &Peticion) {
        let ahora = self.inicio.elapsed().as_micros() as u64;
        self.latencias[p.i].store(ahora.saturating_sub(p.nacida_us), Ordering::Relaxed);
        self.ultima_us.fetch_max(ahora, Ordering::Relaxed);
        self.completadas.fetch_add(1, Ordering::Release);
    }

    pub fn completadas(&self) -> u64 {
        self.completadas.load(Ordering::Acquire)
    }

    /// Cuándo terminó la última petición, desde el inicio.
    pub fn ultima(&self) -> Duration {
        Duration::from_micros(self.ultima_us.load(Ordering::Relaxed))
    }

    /// Las latencias de las peticiones completadas, ordenadas.
    pub fn latencias_ordenadas(&self) -> Vec<u64> {
        let mut v: Vec<u64> =
            self.latencias.iter().map(|l| l.load(Ordering::Relaxed)).filter(|&l| l != SIN_COMPLETAR).collect();
        v.sort_unstable();
        v
    }
}

/// Lo que mide una ejecución de una variante.
#[derive(Debug, Clone, PartialEq)]
pub struct Resultado {
    /// Qué repetición es (0, 1, 2...).
    pub repeticion: u32,
    pub variante: Variante,
    pub escenario: Escenario,
    pub ofrecidas: u64,
    pub completadas: u64,
    pub rechazadas: u64,
    /// Peticiones completadas por segundo, hasta la última.
    pub rendimiento: f64,
    pub p50_us: u64,
    pub p99_us: u64,
    /// Pico de memoria residente del proceso (VmHWM), en MiB; negativo si no se pudo leer.
    pub pico_mib: f64,
    /// Desde el inicio hasta la última petición completada.
    pub hasta_la_ultima_ms: u64,
    /// Tareas robadas entre hilos trabajadores de Tokio; -1 si no se contaron
    /// (hace falta compilar con `--cfg tokio_unstable`) o si no es Tokio.
    pub robos: i64,
}

/// La primera línea del CSV.
pub const CABECERA: &str = "repeticion,variante,escenario,ofrecidas,completadas,rechazadas,rendimiento_por_s,p50_us,p99_us,pico_mib,hasta_la_ultima_ms,robos";

impl Resultado {
    /// Una línea del CSV.
    pub fn a_csv(&self) -> String {
        format!(
            "{},{},{},{},{},{},{:.0},{},{},{:.1},{},{}",
            self.repeticion,
            self.variante.nombre(),
            self.escenario.nombre(),
            self.ofrecidas,
            self.completadas,
            self.rechazadas,
            self.rendimiento,
            self.p50_us,
            self.p99_us,
            self.pico_mib,
            self.hasta_la_ultima_ms,
            self.robos
        )
    }

    /// Lee una línea del CSV.
    pub fn desde_csv(linea: &str) -> Result<Resultado, String> {
        let c: Vec<&str> = linea.trim().split(',').collect();
        if c.len() != 12 {
            return Err(format!("esperaba 12 columnas y hay {}: «{linea}»", c.len()));
        }
        let repeticion = c[0].parse::<u32>().map_err(|_| format!("«{}» no es un número de repetición", c[0]))?;
        let robos = c[11].parse::<i64>().map_err(|_| format!("«{}» no es un número", c[11]))?;
        let c = &c[1..];
        let variante = Variante::desde_nombre(c[0]).ok_or(format!("variante desconocida «{}»", c[0]))?;
        let escenario = Escenario::desde_nombre(c[1]).ok_or(format!("escenario desconocido «{}»", c[1]))?;
        let entero = |s: &str| s.parse::<u64>().map_err(|_| format!("«{s}» no es un número entero"));
        let real = |s: &str| s.parse::<f64>().map_err(|_| format!("«{s}» no es un número"));
        Ok(Resultado {
            repeticion,
            variante,
            escenario,
            ofrecidas: entero(c[2])?,
            completadas: entero(c[3])?,
            rechazadas: entero(c[4])?,
            rendimiento: real(c[5])?,
            p50_us: entero(c[6])?,
            p99_us: entero(c[7])?,
            pico_mib: real(c[8])?,
            hasta_la_ultima_ms: entero(c[9])?,
            robos,
        })
    }
}

/// Lee un CSV entero (con su cabecera).
pub fn lee_csv(texto: &str) -> Result<Vec<Resultado>, String> {
    let mut lineas = texto.lines().filter(|l| !l.trim().is_empty());
    match lineas.next() {
        Some(c) if c.trim() == CABECERA => {}
        _ => return Err(format!("la primera línea debe ser «{CABECERA}»")),
    }
    lineas.map(Resultado::desde_csv).collect()
}

/// Donde la lección escribe su CSV.
pub fn csv_por_defecto() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("resultados").join("comparacion.csv")
}

/// Donde `grafica-comparacion` escribe el SVG que muestra el libro.
pub fn svg_por_defecto() -> PathBuf {
    graficas::svg_del_libro(env!("CARGO_MANIFEST_DIR"), "comparacion.svg")
}

/// El capítulo del libro: cada bloque de Rust se compila como prueba de
/// documentación de este crate.
#[cfg(doctest)]
#[doc = include_str!("../../../book/14-cual-elegir.md")]
pub struct CapituloDelLibro;

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn el_csv_va_y_vuelve() {
        let r = Resultado {
            repeticion: 3,
            variante: Variante::Nucleo,
            escenario: Escenario::Caliente,
            ofrecidas: 10,
            completadas: 8,
            rechazadas: 2,
            rendimiento: 123.0,
            p50_us: 5,
            p99_us: 9,
            pico_mib: 3.5,
            hasta_la_ultima_ms: 100,
            robos: -1,
        };
        let texto = format!("{CABECERA}\n{}\n", r.a_csv());
        assert_eq!(lee_csv(&texto).unwrap(), vec![r]);
        assert!(lee_csv("otra,cabecera\n").is_err());
    }
}
