//! `nucleo`: el runtime de enseñanza del curso.
//!
//! Un hilo del sistema por shard, cada uno con su propio bucle. Los
//! isolates viven en un shard toda su vida; atienden un mensaje cada vez con
//! una función síncrona y devuelven un [`Effect`]. Los buzones y las colas
//! entre shards están acotados: lo que no cabe vuelve a quien lo envió.
//!
//! La idea viene de Tina (un framework en Odin, con un port experimental en
//! Rust), pero este runtime es un diseño propio del curso, pensado para
//! leerse entero: `isolate.rs` es lo que escribe quien lo usa, `hilos.rs` el
//! runtime con hilos y `sim.rs` el mismo modelo en modo determinista.
//!
//! Este crate es también la lección 12: `cargo run -p leccion-12 --release`.

mod azar;
mod hilos;
mod isolate;
pub mod sim;

pub use azar::Azar;
pub use hilos::{CAPACIDAD_BUZON, Config, InformeShard, Lleno, Nucleo, Salida, shard_de};
pub use isolate::{Ctx, Dir, Effect, Isolate, Remitente};

/// El capítulo del libro: cada bloque de Rust se compila como prueba de
/// documentación de este crate.
#[cfg(doctest)]
#[doc = include_str!("../../../book/12-nada-compartido.md")]
pub struct CapituloDelLibro;
