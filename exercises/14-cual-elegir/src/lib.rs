//! Ejercicios del capítulo 14, «¿Cuál elegir?».
//!
//! Trabájalos en orden. Cada módulo es un ejercicio; sus pruebas están en
//! `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-14
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después.

pub mod descarte;
pub mod dimensiona;
pub mod percentiles;
