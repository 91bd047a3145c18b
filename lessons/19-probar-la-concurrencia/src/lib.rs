//! Lección 19: probar la concurrencia.
//!
//! `cargo run -p leccion-19 --release` ejecuta tres exploraciones:
//!
//! 1. loom recorre todos los entrelazados del protocolo de aparcar del
//!    capítulo 09 y encuentra un aviso perdido plantado; cuánto cuesta
//!    según la cota de expulsiones (`preemption_bound`); y, con su
//!    `UnsafeCell` y su `block_on`, una carrera de datos y un aviso perdido
//!    en async.
//! 2. shuttle ejecuta un trozo más grande del ejecutor del capítulo 09 con
//!    planificaciones al azar y PCT: cuántas iteraciones tarda en dar con
//!    el mismo error, semilla a semilla.
//! 3. turmoil simula un cliente y un servidor con una red con latencia y
//!    particiones: un reintento que ingresa dos veces, y una tormenta de
//!    reintentos.

pub mod aviso;
pub mod bitacora;
pub mod celda;
pub mod ejecutor;
pub mod explora;
pub mod red;

#[cfg(doctest)]
#[doc = include_str!("../../../book/19-probar-la-concurrencia.md")]
pub struct LibroDoctests;
