//! Lección 10: fácil no es simple.
//!
//! `cargo run -p leccion-10 --release` hace pasar trabajos por una tubería de
//! tres etapas: E/S simulada en Tokio, cálculo en un pool de Rayon y otra vez
//! E/S en Tokio. Mide cuántos trabajos hay en cada sitio a lo largo del
//! tiempo y la latencia de extremo a extremo. Aquí está lo que el programa
//! necesita: los parámetros, el horario de llegadas, el cálculo y las
//! opciones (los percentiles son los de `medidas`).

use std::time::{Duration, Instant};

use opciones::clap::{self, Parser};

/// Los parámetros del experimento.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parametros {
    /// E/S de entrada (en Tokio): lo que tarda en «llegar» cada trabajo.
    pub entrada: Duration,
    /// Cálculo (en Rayon), sin un solo `.await`.
    pub cpu: Duration,
    /// E/S de salida (en Tokio).
    pub salida: Duration,
    /// Fuera del pico llega un trabajo cada `periodo_ms` milisegundos.
    pub periodo_ms: u64,
    /// Durante el pico llegan `por_ms_pico` trabajos cada milisegundo.
    pub por_ms_pico: u64,
    /// Cuándo empieza el pico (múltiplo de `periodo_ms`).
    pub pico_desde_ms: u64,
    /// Cuándo termina (múltiplo de `periodo_ms`).
    pub pico_hasta_ms: u64,
    /// Cuándo deja de llegar trabajo (múltiplo de `periodo_ms`).
    pub fin_ms: u64,
    /// Cada cuánto se toma una muestra.
    pub muestreo: Duration,
    /// Si la tubería no ha terminado en este tiempo, la lección se rinde.
    pub limite: Duration,
}

impl Parametros {
    /// Los de `cargo run -p leccion-10 --release`.
    pub fn normales() -> Parametros {
        Parametros {
            entrada: Duration::from_millis(5),
            cpu: Duration::from_millis(2),
            salida: Duration::from_millis(2),
            periodo_ms: 2,
            por_ms_pico: 2,
            pico_desde_ms: 300,
            pico_hasta_ms: 800,
            fin_ms: 1_500,
            muestreo: Duration::from_millis(100),
            limite: Duration::from_secs(60),
        }
    }

    /// Los de `--rapido`: la misma forma, cinco veces más corta.
    pub fn rapidos() -> Parametros {
        Parametros {
            pico_desde_ms: 60,
            pico_hasta_ms: 160,
            fin_ms: 300,
            muestreo: Duration::from_millis(20),
            limite: Duration::from_secs(30),
            ..Parametros::normales()
        }
    }

    fn tramos(&self) -> (u64, u64, u64) {
        let antes = self.pico_desde_ms / self.periodo_ms;
        let durante = (self.pico_hasta_ms - self.pico_desde_ms) * self.por_ms_pico;
        let despues = (self.fin_ms - self.pico_hasta_ms) / self.periodo_ms;
        (antes, durante, despues)
    }

    /// Cuántos trabajos llegan en total.
    pub fn total(&self) -> u64 {
        let (a, b, c) = self.tramos();
        a + b + c
    }

    /// Cuándo llega el trabajo `i` (el primero es el 0), en ms desde el inicio.
    pub fn llegada_de(&self, i: u64) -> u64 {
        let (antes, durante, _) = self.tramos();
        if i < antes {
            i * self.periodo_ms
        } else if i < antes + durante {
            self.pico_desde_ms + (i - antes) / self.por_ms_pico
        } else {
            self.pico_hasta_ms + (i - antes - durante) * self.periodo_ms
        }
    }

    /// Cuántos trabajos han llegado hasta el milisegundo `ms` incluido.
    pub fn llegados_hasta(&self, ms: u64) -> u64 {
        // `llegada_de` crece con `i`: búsqueda binaria del primero que aún no llegó.
        let (mut bajo, mut alto) = (0, self.total());
        while bajo < alto {
            let medio = (bajo + alto) / 2;
            if self.llegada_de(medio) <= ms {
                bajo = medio + 1;
            } else {
                alto = medio;
            }
        }
        bajo
    }

    /// En qué fase llegó un trabajo que llegó en el milisegundo `ms`.
    pub fn fase(&self, ms: u64) -> Fase {
        if ms < self.pico_desde_ms {
            Fase::Antes
        } else if ms < self.pico_hasta_ms {
            Fase::Durante
        } else {
            Fase::Despues
        }
    }
}

/// Las tres fases del tráfico, para separar las latencias.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fase {
    Antes,
    Durante,
    Despues,
}

impl Fase {
    pub const TODAS: [Fase; 3] = [Fase::Antes, Fase::Durante, Fase::Despues];

    pub fn etiqueta(self) -> &'static str {
        match self {
            Fase::Antes => "llegaron antes del pico",
            Fase::Durante => "llegaron durante el pico",
            Fase::Despues => "llegaron después del pico",
        }
    }
}

// ANCHOR: calcula
/// Trabajo de CPU puro: `vueltas` rondas de cuentas, sin ningún `.await`.
/// Es una cantidad fija de trabajo, no de tiempo: si hay más hilos que
/// núcleos, cada trabajo tarda más, como pasaría con un cálculo de verdad.
pub fn calcula(vueltas: u64) -> u64 {
    let mut x = 0x9E37_79B9_7F4A_7C15_u64;
    for _ in 0..vueltas {
        for _ in 0..256 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
        }
        x = std::hint::black_box(x);
    }
    x
}

/// Cuántas vueltas de [`calcula`] tardan `cuanto` en este hilo, en esta
/// máquina. Se mide una vez, al principio, antes de arrancar los pools.
pub fn calibra(cuanto: Duration) -> u64 {
    let mut vueltas = 64;
    loop {
        let inicio = Instant::now();
        std::hint::black_box(calcula(vueltas));
        let tardo = inicio.elapsed();
        if tardo >= Duration::from_millis(50) {
            return ((vueltas as f64) * cuanto.as_secs_f64() / tardo.as_secs_f64()).max(1.0) as u64;
        }
        vueltas *= 2;
    }
}
// ANCHOR_END: calcula

/// El tope de hilos que acepta la lección.
pub const MAX_HILOS: usize = 64;

/// Opciones de la lección.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(
    name = "leccion-10",
    about = "Trabajos por una tubería de Tokio, Rayon y Tokio: dónde esperan y cuánto tardan."
)]
pub struct Opciones {
    /// Menos peticiones (lo que usan las pruebas)
    #[arg(long)]
    pub rapido: bool,
    /// Hilos trabajadores de Tokio [por defecto: tantos como núcleos]
    #[arg(long, value_name = "N", value_parser = opciones::entre(1, MAX_HILOS))]
    pub hilos_tokio: Option<usize>,
    /// Hilos de Rayon [por defecto: tantos como núcleos]
    #[arg(long, value_name = "N", value_parser = opciones::entre(1, MAX_HILOS))]
    pub hilos_rayon: Option<usize>,
}

/// El capítulo del libro: cada bloque de Rust se compila como prueba de
/// documentación de este crate, que ya tiene Tokio y Rayon entre sus
/// dependencias.
#[cfg(doctest)]
#[doc = include_str!("../../../book/10-facil-no-es-simple.md")]
pub struct CapituloDelLibro;

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn el_horario_cuadra() {
        let p = Parametros::normales();
        assert_eq!(p.total(), 150 + 1_000 + 350);
        assert_eq!(p.llegada_de(0), 0);
        assert_eq!(p.llegada_de(149), 298);
        assert_eq!(p.llegada_de(150), 300);
        assert_eq!(p.llegada_de(151), 300);
        assert_eq!(p.llegada_de(1_149), 799);
        assert_eq!(p.llegada_de(1_150), 800);
        assert_eq!(p.llegada_de(1_499), 1_498);
        assert_eq!(p.llegados_hasta(0), 1);
        assert_eq!(p.llegados_hasta(299), 150);
        assert_eq!(p.llegados_hasta(300), 152);
        assert_eq!(p.llegados_hasta(10_000), 1_500);
        let r = Parametros::rapidos();
        assert_eq!(r.total(), 30 + 200 + 70);
        assert_eq!(p.fase(299), Fase::Antes);
        assert_eq!(p.fase(300), Fase::Durante);
        assert_eq!(p.fase(800), Fase::Despues);
    }

    #[test]
    fn calibra_algo_razonable() {
        let vueltas = calibra(Duration::from_millis(1));
        assert!(vueltas >= 1);
        assert_ne!(calcula(3), calcula(4));
    }

    #[test]
    fn opciones() {
        let a = |v: &[&str]| opciones::lee::<Opciones>(v.iter().copied());
        assert!(a(&["--rapido"]).unwrap().rapido);
        assert_eq!(a(&["--hilos-rayon", "1"]).unwrap().hilos_rayon, Some(1));
        assert_eq!(a(&["--hilos-tokio", "3"]).unwrap().hilos_tokio, Some(3));
        assert!(a(&["--hilos-rayon", "0"]).is_err());
        assert!(a(&["--hilos-rayon", "65"]).is_err());
        assert!(a(&["--hilos-rayon"]).is_err());
        assert!(a(&["--nada"]).unwrap_err().contains("desconocida"));
    }
}
