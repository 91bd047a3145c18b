//! Los preprocesadores del curso, registrados en `book.toml` con los mismos
//! nombres: [`DirectivasDelCurso`] y [`EnlacesAlRepositorio`]. `cargo libro`
//! los ejecuta dentro del proceso; `mdbook build` los lanza como la orden
//! `cargo curso mantenimiento preprocesador NOMBRE`, que llega a
//! [`preprocesar`].

use mdbook_driver::book::{Book, BookItem};
use mdbook_driver::errors::Result as ResultadoMdbook;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};

use super::cuestionarios::{self, DIRECTIVA as CUESTIONARIO, DIRECTIVA_REVELA};
use super::ejecutables::{self, Pagina};
use super::enlaces::{Repositorio, reescribir_enlaces};
use super::errores::errores_tipicos;
use super::tablas::{tabla_de_ejercicios, tabla_de_horario};
use crate::error::Error;
use crate::modelo::Curso;

/// El nombre del preprocesador de las directivas del curso en `book.toml`.
pub const DIRECTIVAS: &str = "directivas-del-curso";
/// El nombre del preprocesador de los enlaces al repositorio en `book.toml`.
pub const ENLACES: &str = "enlaces-al-repositorio";

/// La URL del repositorio cuando no se configura otra.
pub const REPOSITORIO_POR_DEFECTO: &str = "https://github.com/curso-async-rust/curso";

/// La rama de los enlaces cuando `edit-url-template` no dice otra.
pub const RAMA_POR_DEFECTO: &str = "main";

/// El repositorio de `output.html.git-repository-url` y la rama de
/// `output.html.edit-url-template` (`URL/edit/RAMA/{path}`): el flujo de
/// Pages fija las dos con variables `MDBOOK_OUTPUT__HTML__...`, con la rama
/// que publica.
pub fn repositorio(config: &mdbook_driver::config::Config) -> Repositorio {
    let texto = |clave: &str| config.get::<String>(clave).ok().flatten();
    let url = texto("output.html.git-repository-url")
        .unwrap_or_else(|| REPOSITORIO_POR_DEFECTO.to_string())
        .trim_end_matches('/')
        .to_string();
    let rama = texto("output.html.edit-url-template")
        .and_then(|plantilla| rama_de_la_plantilla(&plantilla, &url))
        .unwrap_or_else(|| RAMA_POR_DEFECTO.to_string());
    Repositorio { url, rama }
}

/// `https://github.com/a/b/edit/publicada/{path}` → `publicada`.
fn rama_de_la_plantilla(plantilla: &str, url: &str) -> Option<String> {
    let resto = plantilla.strip_prefix(url)?.strip_prefix("/edit/")?;
    let rama = resto.strip_suffix("/{path}")?;
    (!rama.is_empty()).then(|| rama.to_string())
}

/// Ejecuta un preprocesador del curso como orden externa de mdbook
/// (`cargo curso mantenimiento preprocesador NOMBRE [supports RENDERER]`):
/// con `supports`, responde con el código de salida si sirve para ese
/// renderizador; sin él, lee `[contexto, libro]` en JSON de `entrada` y
/// escribe el libro preprocesado en `salida`.
pub fn preprocesar(
    nombre: &str,
    argumentos: &[String],
    entrada: impl std::io::Read,
    salida: impl std::io::Write,
) -> Result<bool, Error> {
    let preprocesador: Box<dyn Preprocessor> = match nombre {
        DIRECTIVAS => Box::new(DirectivasDelCurso),
        ENLACES => Box::new(EnlacesAlRepositorio),
        otro => {
            return Err(Error::mensaje(format!(
                "no hay ningún preprocesador del curso llamado «{otro}» (hay {DIRECTIVAS} y {ENLACES})"
            )));
        }
    };
    let de_mdbook = |e: mdbook_driver::errors::Error| Error::mensaje(format!("{e:#}"));
    match argumentos {
        [] => {}
        [orden, renderizador] if orden == "supports" => {
            return preprocesador.supports_renderer(renderizador).map_err(de_mdbook);
        }
        otros => return Err(Error::mensaje(format!("argumentos inesperados: {}", otros.join(" ")))),
    }
    let (contexto, libro) = mdbook_preprocessor::parse_input(entrada)
        .map_err(|e| Error::mensaje(format!("mdbook no me pasó un libro legible: {e:#}")))?;
    let libro = preprocesador.run(&contexto, libro).map_err(de_mdbook)?;
    serde_json::to_writer(salida, &libro).map_err(|e| Error::mensaje(format!("no puedo escribir el libro: {e}")))?;
    Ok(true)
}

/// Convierte los enlaces de los capítulos a archivos del espacio de trabajo
/// (`../lessons/06-hilos-verdes/src/main.rs`) en enlaces al repositorio, que
/// funcionan también en el sitio publicado. El repositorio sale de
/// `output.html.git-repository-url`.
pub struct EnlacesAlRepositorio;

impl Preprocessor for EnlacesAlRepositorio {
    fn name(&self) -> &str {
        ENLACES
    }

    fn run(&self, ctx: &PreprocessorContext, mut book: Book) -> ResultadoMdbook<Book> {
        let repositorio = repositorio(&ctx.config);
        let fuente = ctx.root.join(&ctx.config.book.src);
        book.for_each_mut(|item| {
            if let BookItem::Chapter(capitulo) = item {
                let carpeta = capitulo
                    .source_path
                    .as_ref()
                    .and_then(|p| p.parent())
                    .map(|p| fuente.join(p))
                    .unwrap_or_else(|| fuente.clone());
                capitulo.content = reescribir_enlaces(&capitulo.content, &carpeta, &ctx.root, &repositorio);
            }
        });
        Ok(book)
    }
}

/// Las directivas propias del curso, generadas a partir de sus fuentes de
/// verdad para que el libro no pueda desviarse de ellas:
///
/// - `{{#ejercicios}}` en un capítulo: la tabla de sus ejercicios, leída de
///   la lista del capítulo (`exercises/NN-tema/ejercicios.toml`);
/// - `{{#errores-tipicos}}`, en las notas para quien enseña: las respuestas
///   incorrectas conocidas de cada ejercicio, como diffs plegados;
/// - `{{#horario}}`: el horario del curso, con el tiempo estimado que cada
///   capítulo declara en sus notas para quien enseña;
/// - `{{#mediciones}}`: el registro de mediciones de todos los capítulos;
/// - `{{#cuestionario}}`: el cuestionario del capítulo, de
///   `book/cuestionarios/NN-tema.toml`, y `{{#cuestionario-revela}}`, en las
///   notas para quien enseña, qué idea equivocada revela cada pregunta
///   ([`cuestionarios`]);
/// - en todas las páginas, qué bloques de Rust se pueden ejecutar en el
///   Playground ([`ejecutables`]).
/// - cada reproductor (`<div class="reproductor" data-traza=...>`): su
///   traza, copiada dentro de la página ([`super::trazas`]).
///
/// La raíz del curso es la del libro (`ctx.root`).
pub struct DirectivasDelCurso;

/// Sustituye `directiva` en `contenido` por lo que da `generar` (solo si aparece).
fn sustituir(
    contenido: &mut String,
    directiva: &str,
    generar: impl FnOnce() -> Result<String, Error>,
) -> Option<Error> {
    if !contenido.contains(directiva) {
        return None;
    }
    match generar() {
        Ok(t) => {
            *contenido = contenido.replace(directiva, &t);
            None
        }
        Err(e) => Some(e),
    }
}

impl Preprocessor for DirectivasDelCurso {
    fn name(&self) -> &str {
        DIRECTIVAS
    }

    fn run(&self, ctx: &PreprocessorContext, mut book: Book) -> ResultadoMdbook<Book> {
        let a_mdbook = |e: Error| mdbook_driver::errors::Error::msg(e.to_string());
        let curso = Curso::cargar(&ctx.root).map_err(a_mdbook)?;
        let horario = tabla_de_horario(&curso);
        let mediciones = crate::mediciones::pagina(&curso);
        let fuente = ctx.root.join(&ctx.config.book.src);
        let maquinas = crate::mediciones::maquinas(&ctx.root).map_err(a_mdbook)?;
        let repositorio = repositorio(&ctx.config);
        let mut fallo = None;
        book.for_each_mut(|item| {
            let BookItem::Chapter(capitulo) = item else { return };
            let nombre = capitulo
                .source_path
                .as_ref()
                .and_then(|p| p.file_stem())
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let contenido = &mut capitulo.content;
            fallo = fallo
                .take()
                .or(sustituir(contenido, "{{#ejercicios}}", || tabla_de_ejercicios(&curso, &nombre)))
                .or(sustituir(contenido, "{{#errores-tipicos}}", || errores_tipicos(&curso, &nombre)))
                .or(sustituir(contenido, "{{#mediciones}}", || mediciones.clone()))
                .or(sustituir(contenido, "{{#horario}}", || Ok(horario.clone())))
                .or(sustituir(contenido, CUESTIONARIO, || cuestionarios::html_del_capitulo(&curso, &nombre, &maquinas)))
                .or(sustituir(contenido, DIRECTIVA_REVELA, || {
                    cuestionarios::leer(&curso.raiz, &nombre).map(|l| cuestionarios::revela(&l))
                }));
            let original = capitulo.source_path.as_ref().and_then(|p| std::fs::read_to_string(fuente.join(p)).ok());
            let de_la_pagina = capitulo.source_path.as_ref().and_then(|p| p.parent()).map(|p| fuente.join(p));
            let pagina = Pagina {
                raiz: &ctx.root,
                carpeta: de_la_pagina.as_deref().unwrap_or(&fuente),
                capitulo: curso.capitulo(&nombre).map(|c| c.nombre.as_str()),
                original: original.as_deref().unwrap_or_default(),
                repositorio: &repositorio,
            };
            capitulo.content = ejecutables::marcar(&capitulo.content, &pagina);
            let carpeta = capitulo.source_path.as_ref().and_then(|p| p.parent()).map(|p| fuente.join(p));
            if let Err(e) = super::trazas::incrustar(&mut capitulo.content, &carpeta.unwrap_or_else(|| fuente.clone()))
            {
                fallo = fallo.take().or(Some(e));
            }
        });
        match fallo {
            Some(e) => Err(a_mdbook(e)),
            None => Ok(book),
        }
    }
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn la_rama_sale_de_la_plantilla_de_edicion() {
        let url = "https://github.com/a/b";
        assert_eq!(
            rama_de_la_plantilla("https://github.com/a/b/edit/publicada/{path}", url).as_deref(),
            Some("publicada")
        );
        assert_eq!(rama_de_la_plantilla("https://otro.org/edit/x/{path}", url), None, "de otro repositorio, no");
        assert_eq!(rama_de_la_plantilla("https://github.com/a/b/edit//{path}", url), None, "sin rama, no");
    }
}
