//! Ejercicios del capítulo 12, «Un núcleo, un hilo, nada compartido».
//!
//! Trabájalos en orden. Cada módulo es un ejercicio; sus pruebas están en
//! `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-12
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después.
//! Los tres usan `nucleo`, el runtime de enseñanza de la lección 12.

pub mod almacen;
pub mod contrapresion;
pub mod enruta;
