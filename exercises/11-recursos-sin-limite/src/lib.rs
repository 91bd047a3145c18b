//! Ejercicios del capítulo 11, «Recursos sin límite».
//!
//! Trabájalos en orden. Cada módulo es un ejercicio; sus pruebas están en
//! `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-11
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después.

pub mod despacha;
pub mod limita;
pub mod rechaza;
