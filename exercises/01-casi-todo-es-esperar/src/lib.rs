//! Ejercicios del capítulo 01, «El problema: casi todo es esperar».
//!
//! Trabájalos en orden. Cada módulo es un ejercicio; sus pruebas están en
//! `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-01
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después. Si
//! te atascas, `cargo curso pista NOMBRE` te da una pista.

pub mod aforo;
pub mod cronometro;
pub mod tramos;
