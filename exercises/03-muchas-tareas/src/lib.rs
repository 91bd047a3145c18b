//! Ejercicios del capítulo 03, «Async: muchas tareas sobre pocos hilos».
//!
//! Trabájalos en orden. Cada módulo es un ejercicio; sus pruebas están en
//! `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-03
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después.

pub mod acepta;
pub mod eco;
pub mod lineas;
