//! Soluciones del capítulo 03, «Async: muchas tareas sobre pocos hilos».
//!
//! Las pruebas son las mismas que las de `exercises/03-muchas-tareas`.
//! `cargo run -p soluciones-03` muestra cada solución en marcha.

pub mod acepta;
pub mod eco;
pub mod lineas;
