//! Ejercicios del capítulo 09, «Construye tu propio planificador».
//!
//! Este crate es un ejecutor de enseñanza completo en dos versiones, detrás
//! de la misma interfaz (`Ejecutor`): `UnaCola` (una cola, un candado) y `Robo`
//! (colas locales, cola global, robo de trabajo, ranura LIFO). A `Robo` le
//! faltan cuatro piezas: son los ejercicios, un módulo cada uno. Trabájalos
//! en orden; las pruebas están en `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-09
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después.
//!
//! # El andamiaje no se toca
//!
//! En esta carpeta solo están tus cuatro archivos (`roba.rs`, `siguiente.rs`,
//! `equidad.rs` y `aparca.rs`). El resto del ejecutor, el andamiaje (`Robo`,
//! `UnaCola`, las tareas, la traza...), vive una sola vez, en
//! `solutions/09-tu-planificador/src/`, y este crate lo usa desde allí con
//! `#[path = "..."]`: son los mismos archivos que usa la solución. Léelos
//! cuanto quieras, pero no los edites: cambiarías también la solución, y las
//! pruebas y `cargo curso verifica` dejarían de medir solo tu trabajo. Lo
//! tuyo llega a ellos a través de `crate::roba`, `crate::siguiente`, etc.

// El andamiaje: los archivos de la solución, una sola copia (no los edites).
#[path = "../../../solutions/09-tu-planificador/src/azar.rs"]
pub mod azar;
#[path = "../../../solutions/09-tu-planificador/src/bloqueo.rs"]
pub mod bloqueo;
#[path = "../../../solutions/09-tu-planificador/src/ejecutor.rs"]
pub mod ejecutor;
#[path = "../../../solutions/09-tu-planificador/src/manija.rs"]
pub mod manija;
#[path = "../../../solutions/09-tu-planificador/src/robo.rs"]
pub mod robo;
#[path = "../../../solutions/09-tu-planificador/src/tarea.rs"]
pub mod tarea;
/// La traza del ejecutor con robo, para el reproductor del libro (solo con `--features traza`).
#[cfg(feature = "traza")]
#[path = "../../../solutions/09-tu-planificador/src/traza.rs"]
pub mod traza;
#[path = "../../../solutions/09-tu-planificador/src/una_cola.rs"]
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
