//! Soluciones del capítulo 12, «Un núcleo, un hilo, nada compartido».
//!
//! Las pruebas son las mismas que las de `exercises/12-nada-compartido`.
//! `cargo run -p soluciones-12` muestra cada solución en marcha.

pub mod almacen;
pub mod contrapresion;
pub mod enruta;
