//! Soluciones del capítulo 01, «El problema: casi todo es esperar».
//!
//! Las pruebas son las mismas que las de `exercises/01-casi-todo-es-esperar`.
//! `cargo run -p soluciones-01` muestra cada solución en marcha.

pub mod aforo;
pub mod cronometro;
pub mod tramos;
