//! Ejercicios del capítulo 13, «Determinismo y simulación».
//!
//! Trabájalos en orden. Cada módulo es un ejercicio; sus pruebas están en
//! `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-13
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después.

pub mod invariante;
pub mod protocolo;
pub mod reloj;
