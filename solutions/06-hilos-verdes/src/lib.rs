//! Soluciones del capítulo 06, «Una tarea es un hilo verde».
//!
//! Las pruebas son las mismas que las de `exercises/06-hilos-verdes`.
//! `cargo run -p soluciones-06` muestra cada solución en marcha.

pub mod junta;
pub mod lanzable;
pub mod reparte;
