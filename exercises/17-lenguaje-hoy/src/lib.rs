//! Ejercicios del capítulo 17, «El lenguaje async hoy».
//!
//! Trabájalos en orden. Cada módulo es un ejercicio; sus pruebas están en
//! `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-17
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después.
//! El primero es «haz que compile»: hasta que lo arregles, el crate entero
//! no compila.

pub mod acotadas;
pub mod enviable;
pub mod lotes;
