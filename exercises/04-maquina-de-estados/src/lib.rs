//! Ejercicios del capítulo 04, «Un future es una máquina de estados».
//!
//! Trabájalos en orden. Cada módulo es un ejercicio; sus pruebas están en
//! `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-04
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después.

pub mod bloquea;
pub mod cuenta;
pub mod senal;
