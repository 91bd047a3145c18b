//! Soluciones del capítulo 07, «El JoinHandle: recoger, cancelar, observar».
//!
//! Las pruebas son las mismas que las de `exercises/07-joinhandle`.
//! `cargo run -p soluciones-07` muestra cada solución en marcha.

pub mod desenlaces;
pub mod plazo;
pub mod primera;
