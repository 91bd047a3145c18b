//! Ejercicios del capítulo 07, «El JoinHandle: recoger, cancelar, observar».
//!
//! Trabájalos en orden. Cada módulo es un ejercicio; sus pruebas están en
//! `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-07
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después.

pub mod desenlaces;
pub mod plazo;
pub mod primera;
