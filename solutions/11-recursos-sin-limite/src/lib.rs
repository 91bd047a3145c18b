//! Soluciones del capítulo 11, «Recursos sin límite».
//!
//! Las pruebas son las de `exercises/11-recursos-sin-limite/tests/`;
//! `cargo run -p soluciones-11` enseña las tres soluciones en marcha.

pub mod despacha;
pub mod limita;
pub mod rechaza;
