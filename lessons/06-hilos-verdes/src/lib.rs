//! Lección 06: una tarea es un hilo verde.
//!
//! `cargo run -p leccion-06 --release` lanza cien mil tareas y mide cuánto
//! cuesta cada una. Aquí está lo que el programa necesita para medir: un
//! asignador que cuenta bytes, las opciones y el CSV de
//! `tarea-frente-a-hilo` (la memoria residente la lee `medidas`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use opciones::clap::{self, Parser};

// ANCHOR: contador
/// Un asignador que delega en el del sistema y cuenta lo que se le pide.
pub struct AsignadorContador;

static BYTES_PEDIDOS: AtomicU64 = AtomicU64::new(0);
static RESERVAS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for AsignadorContador {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        BYTES_PEDIDOS.fetch_add(layout.size() as u64, Ordering::Relaxed);
        RESERVAS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: mismo contrato que `GlobalAlloc::alloc`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: mismo contrato que `GlobalAlloc::dealloc`.
        unsafe { System.dealloc(ptr, layout) }
    }
}
// ANCHOR_END: contador

/// Bytes pedidos y número de reservas desde que empezó el programa.
pub fn pedido_hasta_ahora() -> (u64, u64) {
    (BYTES_PEDIDOS.load(Ordering::Relaxed), RESERVAS.load(Ordering::Relaxed))
}

/// Donde `tarea-frente-a-hilo` guarda, en modo completo, la memoria de N
/// hilos y N tareas.
pub fn csv_tarea_hilo() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("resultados").join("tarea-hilo.csv")
}

/// Donde `grafica-tarea-hilo` escribe el SVG que muestra el libro.
pub fn svg_tarea_hilo() -> std::path::PathBuf {
    graficas::svg_del_libro(env!("CARGO_MANIFEST_DIR"), "tarea-hilo.svg")
}

/// Lee el CSV de `tarea-frente-a-hilo`: `(tipo, n, KiB en total)` por fila.
pub fn lee_csv_tarea_hilo(texto: &str) -> Result<Vec<(String, u64, f64)>, String> {
    let mut filas = Vec::new();
    for (i, linea) in texto.lines().enumerate().skip(1) {
        let campos: Vec<&str> = linea.split(',').collect();
        let [tipo, n, kib] = campos[..] else {
            return Err(format!("la línea {} no tiene tres campos: «{linea}»", i + 1));
        };
        let n = n.parse().map_err(|_| format!("la línea {}: «{n}» no es un entero", i + 1))?;
        let kib = kib.parse().map_err(|_| format!("la línea {}: «{kib}» no es un número", i + 1))?;
        filas.push((tipo.to_string(), n, kib));
    }
    Ok(filas)
}

/// El tope de tareas: de sobra para ver la tendencia, lejos de agotar la memoria.
pub const MAX_TAREAS: u32 = 1_000_000;

/// Opciones de la lección, leídas de la línea de órdenes.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(name = "leccion-06", about = "Cien mil tareas que esperan: cuánta memoria ocupa cada una.")]
pub struct Opciones {
    /// Mil tareas (lo que usan las pruebas)
    #[arg(long)]
    pub rapido: bool,
    /// Cuántas tareas lanzar
    #[arg(long, value_name = "N", default_value = "100000", default_value_if("rapido", "true", "1000"),
          value_parser = opciones::entre(1, MAX_TAREAS))]
    pub tareas: u32,
}

/// El capítulo del libro: cada bloque de Rust se compila como prueba de
/// documentación de este crate, que ya tiene Tokio entre sus dependencias.
#[cfg(doctest)]
#[doc = include_str!("../../../book/06-hilos-verdes.md")]
pub struct CapituloDelLibro;

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn opciones() {
        let a = |v: &[&str]| opciones::lee::<Opciones>(v.iter().copied());
        assert_eq!(a(&[]).unwrap().tareas, 100_000);
        assert_eq!(a(&["--rapido"]).unwrap().tareas, 1_000);
        assert_eq!(a(&["--tareas", "500"]).unwrap().tareas, 500);
        assert!(a(&["--tareas", "0"]).is_err());
        assert!(a(&["--tareas", "2000000"]).is_err());
        assert!(a(&["--tareas"]).is_err());
        assert!(a(&["--hilos"]).unwrap_err().contains("desconocida"));
    }
}
