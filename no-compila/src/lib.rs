//! Los ejemplos del libro que no deben compilar, con su error fijado.
//!
//! Están en `tests/ui/NN-tema/`, una carpeta por capítulo (cada `.rs` con su
//! `.stderr`: el libro incluye los dos), y se comprueban todos juntos, con
//! una sola compilación de sus dependencias:
//!
//! ```text
//! cargo test -p no-compila
//! ```
//!
//! Los casos pueden usar Tokio (la dependencia de desarrollo de este
//! paquete); si un caso necesita otra, se añade ahí.
//!
//! Con el toolchain de referencia (`rustc-de-referencia` en el `Cargo.toml`
//! del espacio de trabajo) se compara la salida exacta del compilador. Con
//! otro toolchain estable la salida exacta cambia, así que se comprueba que
//! cada caso siga sin compilar y que su primera línea de error (con el código,
//! como `error[E0373]`) sea la misma. Ningún caso se salta.
//!
//! La comprobación está en `tests/no_compila/`; esta biblioteca está vacía.
