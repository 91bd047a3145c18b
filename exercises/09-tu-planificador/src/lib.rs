//! Ejercicios del capítulo 09, «Construye tu propio planificador».
//!
//! Aquí está un ejecutor de enseñanza completo en dos versiones, detrás de
//! la misma interfaz (`Ejecutor`): `UnaCola` (una cola, un candado) y `Robo`
//! (colas locales, cola global, robo de trabajo, ranura LIFO). A `Robo` le
//! faltan cuatro piezas: son los ejercicios, un módulo cada uno. Trabájalos
//! en orden; las pruebas están en `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-09
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después.

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

pub use ejecutor::Ejecutor;
pub use robo::Robo;
pub use tarea::ceder;
pub use una_cola::UnaCola;
