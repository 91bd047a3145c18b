//! Soluciones del capítulo 09, «Construye tu propio planificador».
//!
//! Dos ejecutores de enseñanza detrás de la misma interfaz (`Ejecutor`):
//! `UnaCola` (una cola, un candado) y `Robo` (colas locales, cola global,
//! robo de trabajo, ranura LIFO). Las pruebas son las mismas que las de
//! `exercises/09-tu-planificador`. `cargo run -p soluciones-09` muestra las
//! soluciones en marcha.
//!
//! El andamiaje (todo salvo `roba.rs`, `siguiente.rs`, `equidad.rs` y
//! `aparca.rs`) está solo aquí: el crate del ejercicio declara esos mismos
//! archivos con `#[path = "../../../solutions/09-tu-planificador/src/..."]`.
//! Lo que cambies en ellos cambia también el ejercicio.

pub mod azar;
pub mod bloqueo;
pub mod ejecutor;
pub mod manija;
pub mod robo;
pub mod tarea;
/// La traza del ejecutor con robo, para el reproductor del libro (solo con `--features traza`).
#[cfg(feature = "traza")]
pub mod traza;
pub mod una_cola;

// Los ejercicios, en orden.
pub mod aparca;
pub mod equidad;
pub mod roba;
pub mod siguiente;

/// Tu `roba.rs` otra vez, compilado sobre los candados de shuttle
/// (`shuttle::sync::Mutex`, con la misma interfaz que el de `std`) en vez de
/// los de `std`. Con ellos, una prueba recorre TODOS los órdenes posibles
/// entre tu robo y el dueño de la cola, no solo los que la suerte trae. Es
/// para las pruebas: el ejecutor usa `crate::roba`.
#[path = "."]
pub mod modelo {
    /// Las colas del modelo: las mismas, con un candado de shuttle.
    pub mod robo {
        pub type ColaLocal = shuttle::sync::Mutex<std::collections::VecDeque<std::sync::Arc<crate::tarea::Tarea>>>;
    }
    pub mod tarea {
        pub use crate::tarea::Tarea;
    }
    // El mismo archivo que `crate::roba`, a propósito: compilado contra otras colas.
    #[allow(clippy::duplicate_mod)]
    #[path = "roba.rs"]
    pub mod roba;
}

pub use ejecutor::Ejecutor;
pub use robo::Robo;
pub use tarea::ceder;
pub use una_cola::UnaCola;
