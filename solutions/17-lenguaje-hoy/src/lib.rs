//! Soluciones del capítulo 17, «El lenguaje async hoy».
//!
//! Las pruebas son las mismas que las de `exercises/17-lenguaje-hoy`.
//! `cargo run -p soluciones-17` muestra cada solución en marcha.

pub mod acotadas;
pub mod enviable;
pub mod lotes;
