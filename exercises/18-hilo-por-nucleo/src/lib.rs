//! Ejercicios del capítulo 18, «Un hilo por núcleo de verdad».
//!
//! Trabájalos en orden. Cada módulo es un ejercicio; sus pruebas están en
//! `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-18
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después.
//! `finalizacion` no es un ejercicio: es la interfaz de lectura por
//! finalización que usa el primero.

pub mod fijar;
pub mod finalizacion;
pub mod lectura;
pub mod reparto;
