//! Soluciones del capítulo 04, «Un future es una máquina de estados».
//!
//! Las pruebas son las mismas que las de `exercises/04-maquina-de-estados`.
//! `cargo run -p soluciones-04` muestra cada solución en marcha.

pub mod bloquea;
pub mod cuenta;
pub mod senal;
