//! Ejercicios del capítulo 05, «Cuándo async y cuándo no».
//!
//! Trabájalos en orden. Cada módulo es un ejercicio; sus pruebas están en
//! `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-05
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después.

pub mod aparta;
pub mod en_rayon;
pub mod trocea;
