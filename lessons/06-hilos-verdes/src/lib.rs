//! Lección 06: una tarea es un hilo verde.
//!
//! `cargo run -p leccion-06 --release` lanza cien mil tareas y mide cuánto
//! cuesta cada una. Aquí está lo que el programa necesita para medir: un
//! asignador que cuenta bytes y la lectura de `/proc/self/status`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

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

/// Lee un campo en kB de `/proc/self/status` (`VmHWM`, `VmRSS`, `VmSize`...)
/// y lo devuelve en bytes. `None` si el sistema no tiene `/proc`.
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

/// Donde `tarea-frente-a-hilo` guarda, en modo completo, la memoria de N
/// hilos y N tareas.
pub fn csv_tarea_hilo() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("resultados").join("tarea-hilo.csv")
}

/// Donde `grafica-tarea-hilo` escribe el SVG que muestra el libro.
pub fn svg_tarea_hilo() -> std::path::PathBuf {
    let leccion = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let raiz = leccion.parent().and_then(std::path::Path::parent).unwrap_or(leccion);
    raiz.join("book").join("graficas").join("tarea-hilo.svg")
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

/// Opciones de la lección, leídas de la línea de órdenes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opciones {
    pub tareas: u32,
}

/// El tope de tareas: de sobra para ver la tendencia, lejos de agotar la memoria.
pub const MAX_TAREAS: u32 = 1_000_000;

/// `--rapido` (mil tareas, para las pruebas) o `--tareas N`.
pub fn lee_opciones(args: impl IntoIterator<Item = String>) -> Result<Opciones, String> {
    let mut opciones = Opciones { tareas: 100_000 };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rapido" => opciones.tareas = 1_000,
            "--tareas" => {
                let valor = args.next().ok_or("falta el número después de --tareas")?;
                opciones.tareas =
                    valor.parse().map_err(|_| format!("--tareas espera un número entero positivo, no «{valor}»"))?;
                if opciones.tareas == 0 || opciones.tareas > MAX_TAREAS {
                    return Err(format!("--tareas debe estar entre 1 y {MAX_TAREAS}"));
                }
            }
            otro => {
                return Err(format!("opción desconocida «{otro}»; usa --rapido o --tareas N (hasta {MAX_TAREAS})"));
            }
        }
    }
    Ok(opciones)
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
    fn lee_campos_de_proc() {
        let estado = "Name:\tx\nVmHWM:\t  2048 kB\nVmRSS:\t  1024 kB\n";
        assert_eq!(valor_en_bytes(estado, "VmHWM"), Some(2048 * 1024));
        assert_eq!(valor_en_bytes(estado, "VmRSS"), Some(1024 * 1024));
        assert_eq!(valor_en_bytes(estado, "VmSize"), None);
    }

    #[test]
    fn opciones() {
        let a = |v: &[&str]| lee_opciones(v.iter().map(|s| s.to_string()));
        assert_eq!(a(&[]).unwrap().tareas, 100_000);
        assert_eq!(a(&["--rapido"]).unwrap().tareas, 1_000);
        assert_eq!(a(&["--tareas", "500"]).unwrap().tareas, 500);
        assert!(a(&["--tareas", "0"]).is_err());
        assert!(a(&["--tareas", "2000000"]).is_err());
        assert!(a(&["--tareas"]).is_err());
        assert!(a(&["--hilos"]).unwrap_err().contains("desconocida"));
    }
}
