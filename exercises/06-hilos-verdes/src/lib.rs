//! Ejercicios del capítulo 06, «Una tarea es un hilo verde».
//!
//! Trabájalos en orden. Cada módulo es un ejercicio; sus pruebas están en
//! `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-06
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después.

pub mod junta;
pub mod lanzable;
pub mod reparte;
