//! Ejercicios del capítulo 15, «Cancelar sin perder nada».
//!
//! Trabájalos en orden. Cada módulo es un ejercicio; sus pruebas están en
//! `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-15
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después.

pub mod apagado;
pub mod arbol;
pub mod tramas;
