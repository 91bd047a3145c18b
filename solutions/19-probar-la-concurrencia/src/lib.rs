//! Soluciones del capítulo 19, «Probar la concurrencia».
//!
//! Las pruebas son las mismas que las de `exercises/19-probar-la-concurrencia`.
//! `cargo run -p soluciones-19` muestra cada solución en marcha.

pub mod aparca;
pub mod azar;
pub mod reintenta;
pub mod roba;
pub mod servidor;
