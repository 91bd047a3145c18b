//! Soluciones del capítulo 08, «El planificador con robo de trabajo».
//!
//! Las pruebas son las mismas que las de `exercises/08-robo-de-trabajo`.
//! `cargo run -p soluciones-08` muestra cada solución en marcha.

pub mod desborda;
pub mod elige;
pub mod lote;
pub mod roba;
