//! Soluciones del capítulo 13, «Determinismo y simulación».
//!
//! Las pruebas son las mismas que las de `exercises/13-determinismo`.
//! `cargo run -p soluciones-13` muestra cada solución en marcha.

pub mod invariante;
pub mod protocolo;
pub mod reloj;
