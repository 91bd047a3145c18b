//! Soluciones del capítulo 10, «Fácil no es simple».
//!
//! Las pruebas son las de `exercises/10-facil-no-es-simple/tests/`;
//! `cargo run -p soluciones-10` enseña las tres soluciones en marcha.

/// El `oneshot` de Tokio con una costura para las pruebas (lo usa `salta`).
pub mod oneshot;
pub mod puente;
pub mod salta;
pub mod tope;
