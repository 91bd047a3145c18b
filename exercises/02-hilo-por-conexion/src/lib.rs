//! Ejercicios del capítulo 02, «Un hilo por conexión y su techo».
//!
//! Trabájalos en orden. Cada módulo es un ejercicio; sus pruebas están en
//! `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-02
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después. Si
//! te atascas, `cargo curso pista NOMBRE` te da una pista.

pub mod eco;
pub mod estado;
pub mod grupo;
