//! Ejercicios del capítulo 08, «El planificador con robo de trabajo».
//!
//! Son las piezas del planificador multihilo de Tokio, en pequeño y sin
//! hilos: colas, lotes y decisiones que puedes probar paso a paso. Trabájalos
//! en orden. Cada módulo es un ejercicio; sus pruebas están en
//! `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-08
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después.

pub mod desborda;
pub mod elige;
pub mod lote;
pub mod roba;
