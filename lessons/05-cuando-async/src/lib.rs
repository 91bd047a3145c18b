//! Lección 05: cuándo async y cuándo no.
//!
//! `cargo run -p leccion-05 --release` mide la latencia de peticiones ligeras
//! mientras otras peticiones hacen 200 ms de CPU de cuatro maneras. Aquí está
//! lo que el programa necesita: el trabajo pesado y el ligero, las cuatro
//! formas de atender una petición pesada, el resumen de latencias (con los
//! percentiles de `medidas`) y las opciones.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use medidas::percentil;
use opciones::clap::{self, Parser};

/// Lo que calcula cada petición pesada, sin un solo `.await`.
pub const PESADA: Duration = Duration::from_millis(200);
/// Cada cuánto llega una ráfaga de peticiones pesadas (una por hilo trabajador).
pub const PERIODO_PESADAS: Duration = Duration::from_millis(500);
/// Cuándo llega la primera ráfaga, contado desde el inicio del escenario.
pub const PRIMERA_RAFAGA: Duration = Duration::from_millis(100);
/// Cada cuánto llega una petición ligera.
pub const INTERVALO_LIGERAS: Duration = Duration::from_millis(1);
/// Una petición ligera que tarda más que esto cuenta como «lenta».
pub const LENTA: Duration = Duration::from_millis(10);

// ANCHOR: calcula
/// Trabajo de CPU puro: hace cuentas hasta que pasa `cuanto`. No tiene ningún
/// `.await`, así que, una vez que empieza, nadie puede interrumpirlo desde el
/// *runtime*: el hilo que lo ejecuta está ocupado hasta el final.
pub fn calcula_durante(cuanto: Duration) -> u64 {
    let inicio = Instant::now();
    let mut x = 0x9E37_79B9_7F4A_7C15_u64;
    while inicio.elapsed() < cuanto {
        for _ in 0..1_000 {
            // xorshift: cuentas que el compilador no puede saltarse
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
        }
        x = std::hint::black_box(x);
    }
    x
}
// ANCHOR_END: calcula

/// Lo que hace una petición ligera: unas pocas cuentas, microsegundos.
pub fn trabajo_ligero(semilla: u64) -> u64 {
    (0..64u64).fold(semilla, |a, b| std::hint::black_box(a.rotate_left(5) ^ b))
}

/// Las cuatro situaciones que mide la lección.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Escenario {
    /// Solo peticiones ligeras.
    SoloLigeras,
    /// Las pesadas calculan dentro de su tarea, en un hilo trabajador.
    DentroDeLaTarea,
    /// Las pesadas se mandan a `spawn_blocking`.
    SpawnBlocking,
    /// Las pesadas se mandan a un pool de Rayon y vuelven por un `oneshot`.
    Rayon,
}

impl Escenario {
    /// Los cuatro, en el orden de la tabla.
    pub const TODOS: [Escenario; 4] =
        [Escenario::SoloLigeras, Escenario::DentroDeLaTarea, Escenario::SpawnBlocking, Escenario::Rayon];

    /// La etiqueta de la fila de la tabla.
    pub fn etiqueta(self) -> &'static str {
        match self {
            Escenario::SoloLigeras => "(a) solo peticiones ligeras",
            Escenario::DentroDeLaTarea => "(b) 200 ms de CPU dentro de la tarea",
            Escenario::SpawnBlocking => "(c) la misma CPU en spawn_blocking",
            Escenario::Rayon => "(d) la misma CPU en Rayon + oneshot",
        }
    }

    /// El nombre corto, el de la columna `escenario` del CSV.
    pub fn nombre(self) -> &'static str {
        match self {
            Escenario::SoloLigeras => "solo_ligeras",
            Escenario::DentroDeLaTarea => "dentro_de_la_tarea",
            Escenario::SpawnBlocking => "spawn_blocking",
            Escenario::Rayon => "rayon",
        }
    }

    /// El escenario de un nombre corto.
    pub fn desde_nombre(nombre: &str) -> Option<Escenario> {
        Escenario::TODOS.into_iter().find(|e| e.nombre() == nombre)
    }
}

// ANCHOR: pesada
/// Atiende una petición pesada de la forma que dice `escenario`.
pub async fn peticion_pesada(escenario: Escenario, pool: Arc<rayon::ThreadPool>) -> u64 {
    match escenario {
        Escenario::SoloLigeras => 0,
        // (b) El cálculo corre aquí mismo, en el hilo trabajador que sondea
        // esta tarea. Durante 200 ms ese hilo no sondea nada más.
        Escenario::DentroDeLaTarea => calcula_durante(PESADA),
        // (c) El cálculo va al pool de hilos bloqueantes de Tokio; la tarea
        // espera el JoinHandle y suelta su hilo trabajador.
        Escenario::SpawnBlocking => {
            tokio::task::spawn_blocking(|| calcula_durante(PESADA)).await.expect("el cálculo no debería fallar")
        }
        // (d) El cálculo va a un pool de Rayon; el resultado vuelve por un
        // canal oneshot, cuyo receptor es un *future* que la tarea espera.
        Escenario::Rayon => {
            let (tx, rx) = tokio::sync::oneshot::channel();
            pool.spawn(move || {
                let _ = tx.send(calcula_durante(PESADA));
            });
            rx.await.expect("Rayon soltó el canal sin responder")
        }
    }
}
// ANCHOR_END: pesada

/// Latencias de un escenario, ya ordenadas y resumidas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resumen {
    pub muestras: usize,
    pub p50: Duration,
    pub p99: Duration,
    pub maxima: Duration,
    /// Cuántas tardaron más que [`LENTA`].
    pub lentas: usize,
}

/// Ordena las latencias y calcula p50, p99, la máxima y cuántas son lentas.
pub fn resume(latencias: &mut [Duration]) -> Option<Resumen> {
    if latencias.is_empty() {
        return None;
    }
    latencias.sort_unstable();
    Some(Resumen {
        muestras: latencias.len(),
        p50: percentil(latencias, 50.0)?,
        p99: percentil(latencias, 99.0)?,
        maxima: *latencias.last()?,
        lentas: latencias.iter().filter(|&&l| l > LENTA).count(),
    })
}

/// El ancho de cada ventana de la gráfica de latencia.
pub const VENTANA: Duration = Duration::from_millis(10);

/// La peor latencia de las ligeras que llegaron en cada ventana de
/// [`VENTANA`]: `(inicio de la ventana en ms, latencia máxima en ms)`.
/// `muestras` son pares `(llegada desde el inicio, latencia)`.
pub fn peor_por_ventana(muestras: &[(Duration, Duration)]) -> Vec<(u64, f64)> {
    let ancho = VENTANA.as_millis() as u64;
    let mut peores: std::collections::BTreeMap<u64, Duration> = std::collections::BTreeMap::new();
    for &(llegada, latencia) in muestras {
        let ventana = llegada.as_millis() as u64 / ancho * ancho;
        let peor = peores.entry(ventana).or_default();
        *peor = (*peor).max(latencia);
    }
    peores.into_iter().map(|(v, l)| (v, l.as_secs_f64() * 1000.0)).collect()
}

/// Donde la lección guarda la latencia por ventana en modo completo.
pub fn csv_por_defecto() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("resultados").join("latencia.csv")
}

/// Donde `grafica-latencia` escribe el SVG que muestra el libro.
pub fn svg_por_defecto() -> PathBuf {
    graficas::svg_del_libro(env!("CARGO_MANIFEST_DIR"), "latencia.svg")
}

/// Lee el CSV de latencias: `(escenario, ms, peor_ms)` por fila.
pub fn lee_csv(texto: &str) -> Result<Vec<(String, u64, f64)>, String> {
    let mut filas = Vec::new();
    for (i, linea) in texto.lines().enumerate().skip(1) {
        let campos: Vec<&str> = linea.split(',').collect();
        let [escenario, ms, peor] = campos[..] else {
            return Err(format!("la línea {} no tiene tres campos: «{linea}»", i + 1));
        };
        let ms = ms.parse().map_err(|_| format!("la línea {}: «{ms}» no es un entero", i + 1))?;
        let peor = peor.parse().map_err(|_| format!("la línea {}: «{peor}» no es un número", i + 1))?;
        filas.push((escenario.to_string(), ms, peor));
    }
    Ok(filas)
}

/// El tope de `--segundos`: cuatro escenarios de un minuto ya son mucho.
pub const MAX_SEGUNDOS: u64 = 60;

/// Opciones de la lección, leídas de la línea de órdenes.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(name = "leccion-05", about = "Latencia de peticiones ligeras junto a 200 ms de CPU, de cuatro maneras.")]
pub struct Opciones {
    /// 0,8 s por escenario y sin CSV salvo que lo pidas (lo que usan las pruebas)
    #[arg(long)]
    pub rapido: bool,
    /// Cuántos segundos dura cada escenario [por defecto: 5]
    #[arg(long, value_name = "S", value_parser = opciones::entre(1, MAX_SEGUNDOS))]
    pub segundos: Option<u64>,
    /// Dónde escribir la latencia por ventana [por defecto, sin --rapido: resultados/latencia.csv]
    #[arg(long, value_name = "RUTA")]
    pub csv: Option<PathBuf>,
}

impl Opciones {
    /// Cuánto dura cada escenario.
    pub fn duracion(&self) -> Duration {
        match self.segundos {
            Some(s) => Duration::from_secs(s),
            None if self.rapido => Duration::from_millis(800),
            None => Duration::from_secs(5),
        }
    }

    /// Dónde escribir la latencia por ventana: en modo completo, por defecto
    /// [`csv_por_defecto`]; en modo rápido, solo si se pide.
    pub fn csv(&self) -> Option<PathBuf> {
        self.csv.clone().or_else(|| (!self.rapido).then(csv_por_defecto))
    }
}

/// El capítulo del libro: cada bloque de Rust se compila como prueba de
/// documentación de este crate, que ya tiene Tokio y Rayon entre sus
/// dependencias.
#[cfg(doctest)]
#[doc = include_str!("../../../book/05-cuando-async.md")]
pub struct CapituloDelLibro;

#[cfg(test)]
mod pruebas {
    use super::*;

    fn ms(v: &[u64]) -> Vec<Duration> {
        v.iter().map(|&m| Duration::from_millis(m)).collect()
    }

    #[test]
    fn resume_ordena_antes() {
        let mut v = ms(&[5, 1, 200, 2, 3]);
        let r = resume(&mut v).unwrap();
        assert_eq!((r.muestras, r.p50, r.maxima), (5, Duration::from_millis(3), Duration::from_millis(200)));
        assert_eq!(r.lentas, 1, "solo 200 ms pasa de {LENTA:?}");
        assert_eq!(resume(&mut []), None);
    }

    #[test]
    fn calcula_durante_el_tiempo_pedido() {
        let inicio = Instant::now();
        calcula_durante(Duration::from_millis(5));
        assert!(inicio.elapsed() >= Duration::from_millis(5));
    }

    #[test]
    fn opciones() {
        let a = |v: &[&str]| opciones::lee::<Opciones>(v.iter().copied());
        assert_eq!(a(&[]).unwrap().duracion(), Duration::from_secs(5));
        assert_eq!(a(&["--rapido"]).unwrap().duracion(), Duration::from_millis(800));
        assert_eq!(a(&["--segundos", "2"]).unwrap().duracion(), Duration::from_secs(2));
        assert!(a(&["--segundos", "0"]).is_err());
        assert!(a(&["--segundos", "61"]).is_err());
        assert!(a(&["--segundos"]).is_err());
        assert!(a(&["--hilos"]).unwrap_err().contains("desconocida"));
        assert_eq!(a(&[]).unwrap().csv(), Some(csv_por_defecto()));
        assert_eq!(a(&["--rapido"]).unwrap().csv(), None);
        assert_eq!(a(&["--rapido", "--csv", "x.csv"]).unwrap().csv(), Some(PathBuf::from("x.csv")));
    }

    #[test]
    fn la_peor_latencia_de_cada_ventana() {
        let m = |l, t| (Duration::from_millis(l), Duration::from_millis(t));
        let v = peor_por_ventana(&[m(0, 1), m(3, 5), m(12, 2), m(31, 190), m(35, 7)]);
        assert_eq!(v, [(0, 5.0), (10, 2.0), (30, 190.0)]);
        let csv = "escenario,ms,peor_ms\nrayon,10,0.25\n";
        assert_eq!(lee_csv(csv).unwrap(), [("rayon".to_string(), 10, 0.25)]);
        assert!(lee_csv("c\nrayon,10\n").is_err());
        assert_eq!(Escenario::desde_nombre("spawn_blocking"), Some(Escenario::SpawnBlocking));
    }
}
