//! La herramienta del curso.
//!
//! - [`libro`]: construye el libro con mdbook y mdbook-mermaid como
//!   bibliotecas (no hace falta instalarlos) y lo sirve en local.
//! - [`ejercicios`]: lee `exercises/ejercicios.toml`, la lista de ejercicios.
//! - [`verificacion`]: demuestra que cada ejercicio se prueba a sí mismo:
//!   su código inicial falla sus pruebas, la solución las pasa y las
//!   respuestas incorrectas conocidas también fallan.
//! - [`mediciones`]: el registro de mediciones (cada número de la prosa,
//!   medido o citado), la orden que las repite y las gráficas.
//! - [`comprobaciones`]: revisa las fuentes del libro (bloques de Rust,
//!   diagramas, enlaces).
//! - [`referencias`]: la página de referencias y quién la cita.

pub mod comprobaciones;
pub mod ejercicios;
pub mod libro;
pub mod mediciones;
pub mod referencias;
pub mod servidor;
pub mod verificacion;
pub mod versionados;

use std::path::{Path, PathBuf};

/// La raíz del espacio de trabajo del curso: la variable `CURSO_RAIZ`, o la
/// primera carpeta, de la actual hacia arriba, con `book.toml` y
/// `exercises/ejercicios.toml`; si no la hay, la del código fuente.
pub fn raiz() -> PathBuf {
    if let Some(r) = std::env::var_os("CURSO_RAIZ") {
        return PathBuf::from(r);
    }
    if let Ok(actual) = std::env::current_dir()
        && let Some(r) = actual.ancestors().find(|d| es_raiz(d))
    {
        return r.to_path_buf();
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("curso/ está dentro de la raíz").to_path_buf()
}

fn es_raiz(dir: &Path) -> bool {
    dir.join("book.toml").is_file() && dir.join("exercises/ejercicios.toml").is_file()
}
pub mod ciclo;
pub mod iniciales;
pub mod ortografia;
pub mod practica;
