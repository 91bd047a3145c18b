//! Soluciones del capítulo 14, «¿Cuál elegir?».
//!
//! Las pruebas son las mismas que las de `exercises/14-cual-elegir`.
//! `cargo run -p soluciones-14` muestra cada solución en marcha.

pub mod descarte;
pub mod dimensiona;
pub mod percentiles;
