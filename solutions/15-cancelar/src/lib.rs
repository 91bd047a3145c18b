//! Soluciones del capítulo 15, «Cancelar sin perder nada».
//!
//! Las pruebas son las mismas que las de `exercises/15-cancelar`.
//! `cargo run -p soluciones-15` muestra cada solución en marcha.

pub mod apagado;
pub mod arbol;
pub mod tramas;
