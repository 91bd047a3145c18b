//! Soluciones del capítulo 16, «Ver lo que hacen las tareas».
//!
//! Trabájalos en orden. Cada módulo es un ejercicio; sus pruebas están en
//! `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-16
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después.

pub mod atascado;
pub mod seguir;
pub mod sondeos;
