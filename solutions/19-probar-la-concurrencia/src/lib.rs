//! Soluciones del capítulo 19, «Probar la concurrencia».
//!
//! Las pruebas son las mismas que las de `exercises/19-probar-la-concurrencia`.
//! `cargo run -p soluciones-19` muestra cada solución en marcha.

pub mod aparca;
// No es un ejercicio: el mismo archivo que usa el ejercicio, una sola copia.
#[path = "../../../exercises/19-probar-la-concurrencia/src/azar.rs"]
pub mod azar;
pub mod reintenta;
pub mod roba;
// No es un ejercicio: el mismo archivo que usa el ejercicio, una sola copia.
#[path = "../../../exercises/19-probar-la-concurrencia/src/servidor.rs"]
pub mod servidor;
