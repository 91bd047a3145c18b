//! La revisión de las fuentes del libro sin construirlo, y la del HTML
//! construido. Cada revisión devuelve hallazgos con su lugar, su clase y su
//! mensaje ([`crate::error::Hallazgo`]).
//!
//! - [`fuentes`]: cada página (bloques de Rust que se compilan, Mermaid
//!   fuera de las citas, includes y enlaces que resuelven);
//! - [`capitulos`]: los capítulos y sus carpetas, sus notas para quien
//!   enseña y los paquetes que nombran;
//! - [`html`]: los enlaces y las anclas del sitio construido;
//! - [`ortografia`]: la ortografía del libro, con hunspell (aparte de
//!   `cargo test`: `cargo curso mantenimiento ortografia`);
//! - [`aserciones`]: cada aserción de las pruebas de los ejercicios lleva
//!   su mensaje para quien aprende;
//! - y, desde aquí, las de los registros de mediciones
//!   ([`crate::mediciones::comprobar()`]), las referencias
//!   ([`crate::referencias::comprobar`]) y los cuestionarios
//!   ([`crate::libro::cuestionarios::prosa::comprobar`]).

pub mod aserciones;
pub mod capitulos;
pub mod fuentes;
pub mod html;
pub mod ortografia;

use std::fs;
use std::path::PathBuf;

pub use capitulos::paquetes;
pub use fuentes::comprobar_pagina;
pub use html::comprobar_html;

use crate::error::{Hallazgo, Tipo};
use crate::modelo::Curso;

/// Revisa todo el libro de `curso`. Devuelve lo encontrado.
pub fn comprobar_libro(curso: &Curso) -> Vec<Hallazgo> {
    let raiz = curso.raiz.as_path();
    let carpeta = raiz.join("book");
    let mut paginas: Vec<PathBuf> = match fs::read_dir(&carpeta) {
        Ok(d) => d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "md")).collect(),
        Err(e) => return vec![Hallazgo::en_archivo("book", None, Tipo::Ilegible, format!("no puedo leer book/: {e}"))],
    };
    paginas.sort();
    let incluidos = capitulos::capitulos_con_doctest(raiz);
    let mut hallazgos = Vec::new();
    for pagina in &paginas {
        let Ok(texto) = fs::read_to_string(pagina) else {
            let relativa = pagina.strip_prefix(raiz).unwrap_or(pagina).to_path_buf();
            let mensaje = format!("no puedo leer {}", pagina.display());
            hallazgos.push(Hallazgo::en_archivo(relativa, None, Tipo::Ilegible, mensaje));
            continue;
        };
        let nombre = pagina.file_name().unwrap_or_default().to_string_lossy();
        let tiene_doctest = incluidos.iter().any(|i| *i == nombre);
        hallazgos.extend(comprobar_pagina(raiz, pagina, &texto, tiene_doctest));
    }
    let paquetes = paquetes(raiz);
    hallazgos.extend(capitulos::comprobar_carpetas(curso));
    hallazgos.extend(capitulos::comprobar_capitulos(curso, &paginas, &paquetes));
    hallazgos.extend(crate::mediciones::comprobar(curso, &paquetes));
    hallazgos.extend(crate::referencias::comprobar(raiz));
    hallazgos.extend(crate::libro::cuestionarios::prosa::comprobar(curso));
    hallazgos
}
