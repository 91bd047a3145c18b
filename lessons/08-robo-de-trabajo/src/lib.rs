//! Lección 08: el planificador con robo de trabajo.
//!
//! `cargo run -p leccion-08 --release` lanza una ráfaga de tareas de cálculo
//! desde un hilo trabajador y enseña, con las métricas del *runtime*, cómo se
//! la reparten los trabajadores. Aquí están las piezas que no dependen de
//! Tokio: las opciones, el cálculo de cada tarea y las cuentas del informe.
//!
//! [`grabacion`] es lo del grabador (`--bin grabador`): graba el Tokio de
//! verdad, evento a evento, para el reproductor del libro.

pub mod grabacion;

use std::hint::black_box;

use opciones::clap::{self, Parser};

/// La ráfaga por defecto: menos de 256 tareas, para que quepa en una cola
/// local y el reparto se haga robando, no desbordando.
pub const TAREAS: u32 = 200;
/// El tope de `--tareas`: con más de 256 ya verás desbordes; con este tope
/// la lección sigue durando unos pocos segundos.
pub const MAX_TAREAS: u32 = 2_000;
/// Vueltas de cálculo por tarea: alrededor de un milisegundo en *release*.
pub const VUELTAS: u32 = 500_000;
/// El tope de `--trabajadores`.
pub const MAX_TRABAJADORES: usize = 64;

/// Opciones de la lección, leídas de la línea de órdenes.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(
    name = "leccion-08",
    about = "Una ráfaga de tareas de cálculo y cómo se la reparten los trabajadores de Tokio."
)]
pub struct Opciones {
    /// La ráfaga pequeña y corta que usan las pruebas
    #[arg(long)]
    pub rapido: bool,
    /// Cuántas tareas tiene la ráfaga
    #[arg(long, value_name = "N", default_value_t = TAREAS, default_value_if("rapido", "true", "32"),
          value_parser = opciones::entre(1, MAX_TAREAS))]
    pub tareas: u32,
    /// Hilos trabajadores [por defecto: lo que Tokio elija, uno por núcleo]
    #[arg(long, value_name = "N", value_parser = opciones::entre(1, MAX_TRABAJADORES))]
    pub trabajadores: Option<usize>,
    /// Cuánto calcula cada tarea (vueltas del bucle de [`calcula`]); `--rapido`: `VUELTAS / 50`
    #[arg(long, value_name = "N", hide = true, default_value_t = VUELTAS, default_value_if("rapido", "true", "10000"),
          value_parser = opciones::entre(1, VUELTAS))]
    pub vueltas: u32,
}

// ANCHOR: calcula
/// El trabajo de cada tarea: `vueltas` pasos de un generador xorshift. Es
/// cálculo puro, sin un solo `.await`: la tarea no cede hasta terminar.
pub fn calcula(semilla: u64, vueltas: u32) -> u64 {
    let mut x = semilla.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for _ in 0..vueltas {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    black_box(x)
}
// ANCHOR_END: calcula

/// El intervalo de la cola global que elige Tokio a partir del tiempo medio
/// de sondeo de un trabajador: cuántos sondeos caben en 200 µs, entre 2 y 127
/// (`TARGET_GLOBAL_QUEUE_INTERVAL` y `MAX_TASKS_POLLED_PER_GLOBAL_QUEUE_INTERVAL`
/// en `tokio/src/runtime/scheduler/multi_thread/stats.rs`).
pub fn intervalo_de_la_global(media_de_sondeo_ns: f64) -> u32 {
    if media_de_sondeo_ns <= 0.0 {
        return 127;
    }
    ((200_000.0 / media_de_sondeo_ns) as u32).clamp(2, 127)
}

/// El capítulo del libro: cada bloque de Rust se compila como prueba de
/// documentación de este crate, que ya tiene Tokio entre sus dependencias.
#[cfg(doctest)]
#[doc = include_str!("../../../book/08-robo-de-trabajo.md")]
pub struct CapituloDelLibro;

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn opciones() {
        let a = |v: &[&str]| opciones::lee::<Opciones>(v.iter().copied());
        assert_eq!(a(&[]).unwrap(), Opciones { rapido: false, tareas: TAREAS, vueltas: VUELTAS, trabajadores: None });
        assert_eq!(a(&["--rapido"]).unwrap().tareas, 32);
        assert_eq!(a(&["--rapido"]).unwrap().vueltas, VUELTAS / 50);
        assert_eq!(a(&["--tareas", "1000"]).unwrap().tareas, 1000);
        assert_eq!(a(&["--trabajadores", "4"]).unwrap().trabajadores, Some(4));
        assert!(a(&["--tareas", "0"]).is_err());
        assert!(a(&["--tareas", "5000"]).is_err());
        assert!(a(&["--trabajadores", "0"]).is_err());
        assert!(a(&["--tareas"]).is_err());
        assert!(a(&["--hilos"]).unwrap_err().contains("desconocida"));
    }

    #[test]
    fn intervalo_como_tokio() {
        // Al arrancar, Tokio supone 200 µs / 61 por sondeo: intervalo 61.
        assert_eq!(intervalo_de_la_global(200_000.0 / 61.0), 61);
        assert_eq!(intervalo_de_la_global(1_000_000.0), 2, "sondeos de 1 ms: el mínimo, 2");
        assert_eq!(intervalo_de_la_global(100.0), 127, "sondeos de 100 ns: el máximo, 127");
    }

    #[test]
    fn calcula_es_determinista() {
        assert_eq!(calcula(7, 1000), calcula(7, 1000));
        assert_ne!(calcula(7, 1000), calcula(8, 1000));
    }
}
