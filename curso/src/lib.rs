//! La herramienta del curso.
//!
//! Abajo, lo que usa todo lo demás:
//! - [`modelo`]: el curso leído una vez (capítulos, crates, ejercicios y su
//!   código inicial); el único sitio que calcula números de capítulo y
//!   nombres de paquete.
//! - [`procesos`]: el único sitio que arranca programas (cargo, git,
//!   hunspell, node, Chromium), con límites de tiempo y los mensajes de cargo
//!   con tipo.
//! - [`error`]: los errores y los hallazgos con tipo.
//!
//! Encima, las partes del curso:
//! - [`libro`]: construye el libro con mdbook y mdbook-mermaid como
//!   bibliotecas (no hace falta instalarlos) y lo sirve en local.
//! - [`practica`]: el progreso de quien aprende y la prueba de un ejercicio.
//! - [`verificacion`]: demuestra que cada ejercicio se prueba a sí mismo:
//!   su código inicial falla sus pruebas, la solución las pasa y las
//!   respuestas incorrectas conocidas también fallan.
//! - [`mediciones`]: el registro de mediciones (cada número de la prosa,
//!   medido o citado), la orden que las repite y las gráficas.
//! - [`revision`]: revisa las fuentes del libro (bloques de Rust,
//!   diagramas, enlaces, capítulos y carpetas) y el HTML construido.
//! - [`referencias`]: la página de referencias y quién la cita.

pub mod ciclo;
pub mod error;
pub mod hallazgo;
pub mod libro;
pub mod mediciones;
pub mod modelo;
pub mod practica;
pub mod procesos;
pub mod referencias;
pub mod revision;
pub mod servidor;
pub mod verificacion;
pub mod versionados;

pub use error::{Error, Hallazgo, Lugar};
pub use modelo::{Curso, ejercicios, iniciales, raiz};
