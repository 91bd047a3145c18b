//! Ejercicios del capítulo 19, «Probar la concurrencia».
//!
//! Trabájalos en orden. Cada módulo es un ejercicio; sus pruebas están en
//! `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-19
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después.
//!
//! Ojo: `aparca` usa los tipos de `loom` y `roba` los de `shuttle`. Solo
//! funcionan dentro de `loom::model` o de un planificador de shuttle, que es
//! donde los ponen las pruebas. `servidor` y `azar` no son ejercicios: son
//! el servidor contra el que prueba `reintenta` y el generador de números al
//! azar, con semilla, que usa para repartir sus esperas.

pub mod aparca;
pub mod azar;
pub mod reintenta;
pub mod roba;
pub mod servidor;
