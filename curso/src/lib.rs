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

/// La forma de la herramienta, vigilada: sin ciclos entre sus módulos y sin
/// archivos enormes. Si una prueba de aquí falla, la arquitectura de
/// `lib.rs` (arriba lo de abajo, encima las partes) se está rompiendo.
#[cfg(test)]
mod estructura {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// Lo más largo que debe ser un archivo de `src/`.
    const LINEAS_MAXIMAS: usize = 400;

    /// Para cada módulo de arriba (`libro`, `modelo`...), los demás que usa
    /// con `crate::`.
    fn dependencias() -> BTreeMap<String, BTreeSet<String>> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let uso = regex::Regex::new(r"crate::([a-z_]+)").expect("expresión válida");
        let mut grafo: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for entrada in walkdir::WalkDir::new(&src).into_iter().flatten() {
            let ruta = entrada.path();
            if ruta.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let relativa = ruta.strip_prefix(&src).expect("dentro de src");
            let primero = relativa.components().next().expect("no vacía").as_os_str().to_string_lossy();
            let modulo = primero.trim_end_matches(".rs").to_string();
            let texto = std::fs::read_to_string(ruta).expect("se lee");
            let usados = grafo.entry(modulo.clone()).or_default();
            for c in uso.captures_iter(&texto) {
                if c[1] != *modulo {
                    usados.insert(c[1].to_string());
                }
            }
        }
        grafo
    }

    #[test]
    fn los_modulos_no_forman_ciclos() {
        let grafo = dependencias();
        // Orden topológico: se quita lo que ya no depende de nada pendiente.
        let mut pendientes: BTreeSet<&String> = grafo.keys().collect();
        while !pendientes.is_empty() {
            let libres: Vec<&String> =
                pendientes.iter().copied().filter(|m| grafo[*m].iter().all(|d| !pendientes.contains(d))).collect();
            assert!(!libres.is_empty(), "hay un ciclo entre estos módulos de curso/src: {pendientes:?}");
            for m in libres {
                pendientes.remove(m);
            }
        }
    }

    #[test]
    fn ningun_archivo_pasa_de_400_lineas() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        for entrada in walkdir::WalkDir::new(&src).into_iter().flatten() {
            if entrada.path().extension().is_some_and(|x| x == "rs") {
                let lineas = std::fs::read_to_string(entrada.path()).expect("se lee").lines().count();
                assert!(
                    lineas <= LINEAS_MAXIMAS,
                    "{} tiene {lineas} líneas: pártelo en módulos (máximo {LINEAS_MAXIMAS})",
                    entrada.path().display()
                );
            }
        }
    }
}
