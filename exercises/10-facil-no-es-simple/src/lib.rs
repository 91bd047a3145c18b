//! Ejercicios del capítulo 10, «Fácil no es simple».
//!
//! Los tres son variaciones del puente entre Tokio y Rayon del capítulo 5
//! (`pool.spawn` más un `oneshot`), con lo que ese puente no resolvía: los
//! pánicos, un tope de trabajos en vuelo y la cancelación. Trabájalos en
//! orden. Cada módulo es un ejercicio; sus pruebas están en
//! `tests/ejercicios.rs`. Compruébalos con:
//!
//! ```text
//! cargo test -p ejercicios-10
//! ```
//!
//! o, mejor, con `cargo curso verifica`, que te dice qué probar después.

/// El `oneshot` de Tokio con una costura para las pruebas (lo usa `salta`).
/// Vive una sola vez, en la solución: no lo edites.
#[path = "../../../solutions/10-facil-no-es-simple/src/oneshot.rs"]
pub mod oneshot;
pub mod puente;
pub mod salta;
pub mod tope;
