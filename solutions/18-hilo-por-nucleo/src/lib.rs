//! Soluciones del capítulo 18, «Un hilo por núcleo de verdad».
//!
//! Las pruebas son las mismas que las de `exercises/18-hilo-por-nucleo`.
//! `cargo run -p soluciones-18` muestra cada solución en marcha.

pub mod fijar;
// No es un ejercicio: el mismo archivo que usa el ejercicio, una sola copia.
#[path = "../../../exercises/18-hilo-por-nucleo/src/finalizacion.rs"]
pub mod finalizacion;
pub mod lectura;
pub mod reparto;
