//! Soluciones del capítulo 02, «Un hilo por conexión y su techo».
//!
//! Las pruebas son las mismas que las de `exercises/02-hilo-por-conexion`.
//! `cargo run -p soluciones-02` muestra cada solución en marcha.

pub mod eco;
pub mod estado;
pub mod grupo;
