//! Lección 04: un *future* es una máquina de estados.
//!
//! Dos programas:
//!
//! ```text
//! cargo run -p leccion-04 --release --bin tamanos    # cuánto ocupa cada future
//! cargo run -p leccion-04 --release --bin ejecutor   # un ejecutor mínimo, paso a paso
//! ```
//!
//! Los dos aceptan `--rapido`, que es lo que usan las pruebas.
//!
//! Aquí están las piezas que los dos programas comparten: *futures* escritos
//! a mano ([`ceder`], [`maquina`], [`temporizador`]), un ejecutor mínimo
//! ([`ejecutor`]) y un asignador que cuenta bytes.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use opciones::clap::{self, Parser};

pub mod ceder;
pub mod ejecutor;
pub mod maquina;
pub mod temporizador;

static TRAZA: AtomicBool = AtomicBool::new(false);

/// Enciende la traza: desde ahora, [`traza!`] imprime.
pub fn activa_traza() {
    TRAZA.store(true, Ordering::Relaxed);
}

/// ¿Está encendida la traza?
pub fn traza_activa() -> bool {
    TRAZA.load(Ordering::Relaxed)
}

/// `println!` que solo imprime si el programa encendió la traza con
/// [`activa_traza`]. Así las pruebas de este crate no llenan la pantalla.
#[macro_export]
macro_rules! traza {
    ($($arg:tt)*) => {
        if $crate::traza_activa() {
            println!($($arg)*);
        }
    };
}

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

/// Bytes pedidos y número de reservas desde que empezó el programa.
pub fn pedido_hasta_ahora() -> (u64, u64) {
    (BYTES_PEDIDOS.load(Ordering::Relaxed), RESERVAS.load(Ordering::Relaxed))
}

/// Opciones de los dos programas de la lección.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(about = "Futures por dentro: tamaños de las máquinas de estados y un ejecutor pequeño.")]
pub struct Opciones {
    /// Menos tareas y esperas más cortas (lo que usan las pruebas)
    #[arg(long)]
    pub rapido: bool,
}

/// El capítulo del libro: cada bloque de Rust se compila como prueba de
/// documentación de este crate, que ya tiene Tokio entre sus dependencias.
#[cfg(doctest)]
#[doc = include_str!("../../../book/04-maquina-de-estados.md")]
pub struct CapituloDelLibro;

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn opciones() {
        let a = |v: &[&str]| opciones::lee::<Opciones>(v.iter().copied());
        assert_eq!(a(&[]), Ok(Opciones { rapido: false }));
        assert_eq!(a(&["--rapido"]), Ok(Opciones { rapido: true }));
        assert!(a(&["--hilos"]).unwrap_err().contains("desconocida «--hilos»"));
    }
}
