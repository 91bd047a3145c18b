//! Soluciones del capítulo 05, «Cuándo async y cuándo no».
//!
//! Las pruebas son las mismas que las de `exercises/05-cuando-async`.
//! `cargo run -p soluciones-05` muestra cada solución en marcha.

pub mod aparta;
pub mod en_rayon;
pub mod trocea;
