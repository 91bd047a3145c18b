//! La revisión de una página del libro (`book/*.md`) sin construirla:
//!
//! - cada bloque ```` ```rust ```` se compila: o es código en línea que el
//!   crate de la lección compila como prueba de documentación
//!   (`#[doc = include_str!("../../../book/NN-....md")]`), o es un
//!   `{{#include ruta:ancla}}` de un archivo de un crate del espacio de
//!   trabajo (marcado `rust,ignore`, porque ya lo compila su crate), o es un
//!   `rust,compile_fail` que incluye un caso de `no-compila/tests/ui/` con su `.stderr`;
//! - ningún diagrama Mermaid está dentro de una cita (`>`), donde no se dibuja;
//! - cada `{{#include}}` apunta a un archivo y un ancla que existen;
//! - cada enlace relativo resuelve: a otra página del libro o a un archivo
//!   del espacio de trabajo.

use std::fs;
use std::path::Path;

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

use crate::error::{Hallazgo, Tipo};
use crate::modelo::normalizar;

/// Un bloque de código del libro.
#[derive(Debug)]
struct Bloque {
    info: String,
    codigo: String,
    en_cita: bool,
    linea: usize,
}

impl Bloque {
    /// El lenguaje (`rust`) y las marcas (`ignore`, `compile_fail`) de su línea de apertura.
    fn lenguaje_y_marcas(&self) -> (&str, Vec<&str>) {
        let mut partes = self.info.split([',', ' ']).filter(|m| !m.is_empty());
        (partes.next().unwrap_or_default(), partes.collect())
    }
}

/// Lo que hay que revisar de una página: sus bloques y sus enlaces (con su línea).
#[derive(Default)]
struct Pagina {
    bloques: Vec<Bloque>,
    enlaces: Vec<(usize, String)>,
}

/// Lee los bloques y los enlaces de un texto Markdown, como los lee mdbook.
fn leer(texto: &str) -> Pagina {
    let mut pagina = Pagina::default();
    let mut citas = 0usize;
    let mut actual: Option<Bloque> = None;
    let linea_de = |offset: usize| texto[..offset].lines().count() + 1;
    let opciones = Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_STRIKETHROUGH;
    for (evento, rango) in Parser::new_ext(texto, opciones).into_offset_iter() {
        match evento {
            Event::Start(Tag::BlockQuote(_)) => citas += 1,
            Event::End(TagEnd::BlockQuote(_)) => citas -= 1,
            Event::Start(Tag::CodeBlock(tipo)) => {
                let info = match tipo {
                    CodeBlockKind::Fenced(i) => i.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                actual = Some(Bloque { info, codigo: String::new(), en_cita: citas > 0, linea: linea_de(rango.start) });
            }
            Event::Text(t) => {
                if let Some(b) = actual.as_mut() {
                    b.codigo.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => pagina.bloques.extend(actual.take()),
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                pagina.enlaces.push((linea_de(rango.start), dest_url.to_string()));
            }
            _ => {}
        }
    }
    pagina
}

/// La revisión de una página: dónde está y lo que se va encontrando.
struct Revision<'a> {
    raiz: &'a Path,
    carpeta: &'a Path,
    nombre: String,
    hallazgos: Vec<Hallazgo>,
}

impl Revision<'_> {
    fn problema(&mut self, linea: usize, tipo: Tipo, mensaje: String) {
        let texto = format!("{}: línea {linea}: {mensaje}", self.nombre);
        self.hallazgos.push(Hallazgo::en_archivo(&self.nombre, Some(linea), tipo, texto));
    }

    /// Un bloque: sus includes, Mermaid fuera de citas, y que el Rust se compile.
    fn bloque(&mut self, b: &Bloque, tiene_doctest: bool) {
        let (lenguaje, marcas) = b.lenguaje_y_marcas();
        let directivas = directivas_include(&b.codigo);
        for d in &directivas {
            if let Some((tipo, p)) = comprobar_include(self.raiz, self.carpeta, d) {
                self.problema(b.linea, tipo, p);
            }
        }
        if lenguaje == "mermaid" && b.en_cita {
            let mensaje = "un diagrama Mermaid dentro de una cita (>) no se dibuja; sácalo de la cita".to_string();
            self.problema(b.linea, Tipo::MermaidEnCita, mensaje);
        }
        if lenguaje == "rust" {
            let solo_includes =
                !directivas.is_empty() && b.codigo.lines().filter(|l| !l.trim().is_empty()).count() == directivas.len();
            self.rust(b.linea, &marcas, solo_includes.then_some(&directivas[..]), tiene_doctest);
        }
    }

    /// Un bloque de Rust: lo compila su crate (`includes`, solo includes),
    /// un doctest, o un caso de trybuild (`compile_fail`).
    fn rust(&mut self, linea: usize, marcas: &[&str], includes: Option<&[String]>, tiene_doctest: bool) {
        let ignore = marcas.contains(&"ignore");
        let compile_fail = marcas.contains(&"compile_fail");
        match includes {
            Some(directivas) if compile_fail => {
                let sin_caso = directivas.iter().filter(|d| !es_caso_de_trybuild(self.carpeta, d)).count();
                for _ in 0..sin_caso {
                    let mensaje =
                        "un bloque compile_fail debe incluir un caso de no-compila/tests/ui/NN-tema/ con su .stderr";
                    self.problema(linea, Tipo::CompileFailSinCaso, mensaje.to_string());
                }
            }
            Some(_) if !ignore => self.problema(
                linea,
                Tipo::IncludeSinIgnore,
                "un bloque que solo incluye código de un crate se marca ```rust,ignore (ya lo compila su crate)"
                    .to_string(),
            ),
            Some(_) => {}
            None if ignore || compile_fail => self.problema(
                linea,
                Tipo::BloqueSinCompilar,
                "este bloque no se compilaría: quita `ignore`/`compile_fail` o incluye el código \
                 de un crate (o de un caso de no-compila/tests/ui/)"
                    .to_string(),
            ),
            None if !tiene_doctest => self.problema(
                linea,
                Tipo::BloqueSinCompilar,
                "este bloque de Rust no lo compila nadie: incluye la página con \
                 #[cfg(doctest)] #[doc = include_str!(...)] en el crate de su lección"
                    .to_string(),
            ),
            None => {}
        }
    }
}

/// ¿Es `directiva` (`ruta[:ancla]`) un caso de `no-compila/tests/ui/NN-tema/` con su `.stderr`?
fn es_caso_de_trybuild(carpeta: &Path, directiva: &str) -> bool {
    let ruta = directiva.split(':').next().unwrap_or_default();
    let absoluta = normalizar(&carpeta.join(ruta));
    absoluta.ancestors().nth(2).is_some_and(|p| p.ends_with("no-compila/tests/ui"))
        && absoluta.with_extension("stderr").is_file()
}

/// Revisa una página. `pagina`: su ruta (dentro de `raiz`); `tiene_doctest`:
/// algún crate la compila como doctest.
pub fn comprobar_pagina(raiz: &Path, pagina: &Path, texto: &str, tiene_doctest: bool) -> Vec<Hallazgo> {
    let carpeta = pagina.parent().unwrap_or(Path::new("."));
    let nombre = pagina.strip_prefix(raiz).unwrap_or(pagina).display().to_string();
    let mut revision = Revision { raiz, carpeta, nombre, hallazgos: Vec::new() };
    let leida = leer(texto);
    for (linea, destino) in &leida.enlaces {
        if let Some(p) = comprobar_enlace(raiz, carpeta, destino) {
            revision.problema(*linea, Tipo::EnlaceRoto, p);
        }
    }
    for b in &leida.bloques {
        revision.bloque(b, tiene_doctest);
    }
    revision.hallazgos
}

/// Las rutas (con ancla) de las directivas `{{#include ...}}` de un texto.
fn directivas_include(texto: &str) -> Vec<String> {
    let mut salida = Vec::new();
    for trozo in texto.split("{{#").skip(1) {
        let Some((dentro, _)) = trozo.split_once("}}") else { continue };
        let mut partes = dentro.split_whitespace();
        if let (Some("include" | "rustdoc_include"), Some(ruta)) = (partes.next(), partes.next()) {
            salida.push(ruta.to_string());
        }
    }
    salida
}

/// Revisa `ruta[:ancla]` de un `{{#include}}`.
fn comprobar_include(raiz: &Path, carpeta: &Path, directiva: &str) -> Option<(Tipo, String)> {
    let (ruta, ancla) = directiva.split_once(':').map_or((directiva, None), |(r, a)| (r, Some(a)));
    let absoluta = normalizar(&carpeta.join(ruta));
    let Ok(texto) = fs::read_to_string(&absoluta) else {
        return Some((Tipo::IncludeRoto, format!("{{{{#include {directiva}}}}}: no existe {ruta}")));
    };
    if !absoluta.starts_with(raiz) {
        return Some((
            Tipo::IncludeRoto,
            format!("{{{{#include {directiva}}}}}: el archivo está fuera del repositorio"),
        ));
    }
    if let Some(ancla) = ancla.filter(|a| !a.chars().next().is_some_and(|c| c.is_ascii_digit())) {
        let abre = texto.lines().any(|l| l.trim_end().ends_with(&format!("ANCHOR: {ancla}")));
        let cierra = texto.lines().any(|l| l.trim_end().ends_with(&format!("ANCHOR_END: {ancla}")));
        if !abre || !cierra {
            return Some((
                Tipo::AnclaQueFalta,
                format!("{{{{#include {directiva}}}}}: falta el ancla «{ancla}» en {ruta}"),
            ));
        }
    }
    None
}

/// Revisa un enlace. Los externos (`https:`) y los fragmentos sueltos se dejan
/// para la comprobación del HTML construido.
fn comprobar_enlace(raiz: &Path, carpeta: &Path, destino: &str) -> Option<String> {
    if destino.contains("://") || destino.starts_with("mailto:") || destino.starts_with('#') || destino.is_empty() {
        return None;
    }
    let ruta = destino.split('#').next().unwrap_or_default();
    if crate::libro::PUBLICADOS_APARTE.contains(&ruta) {
        return None;
    }
    let absoluta = normalizar(&carpeta.join(ruta));
    let existe = absoluta.exists() || (ruta.ends_with(".html") && absoluta.with_extension("md").is_file());
    if !existe {
        return Some(format!("el enlace «{destino}» no lleva a ningún archivo"));
    }
    if !absoluta.starts_with(raiz) {
        return Some(format!("el enlace «{destino}» sale del repositorio"));
    }
    None
}

#[cfg(test)]
mod pruebas {
    use super::*;
    use std::path::PathBuf;

    fn raiz() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
    }

    fn tipos(texto: &str, doctest: bool) -> Vec<Tipo> {
        comprobar_pagina(&raiz(), &raiz().join("book/prueba.md"), texto, doctest).into_iter().map(|h| h.tipo).collect()
    }

    #[test]
    fn mermaid_en_una_cita_es_un_problema() {
        assert_eq!(tipos("> ```mermaid\n> flowchart TD\n> A-->B\n> ```\n", false), [Tipo::MermaidEnCita]);
        assert_eq!(tipos("```mermaid\nflowchart TD\nA-->B\n```\n", false), []);
    }

    #[test]
    fn un_bloque_de_rust_sin_doctest_es_un_problema() {
        let bloque = "```rust\nfn main() {}\n```\n";
        assert_eq!(tipos(bloque, false), [Tipo::BloqueSinCompilar]);
        assert_eq!(tipos(bloque, true), []);
    }

    #[test]
    fn ignore_solo_vale_para_includes() {
        assert_eq!(tipos("```rust,ignore\nfn main() {}\n```\n", true), [Tipo::BloqueSinCompilar]);
        let include = "```rust,ignore\n{{#include ../lessons/06-hilos-verdes/src/lib.rs:contador}}\n```\n";
        assert_eq!(tipos(include, false), []);
        let sin_ignore = "```rust\n{{#include ../lessons/06-hilos-verdes/src/lib.rs:contador}}\n```\n";
        assert_eq!(tipos(sin_ignore, true), [Tipo::IncludeSinIgnore]);
    }

    #[test]
    fn un_ancla_que_no_existe_es_un_problema() {
        let p = comprobar_pagina(
            &raiz(),
            &raiz().join("book/prueba.md"),
            "Texto.\n\n```rust,ignore\n{{#include ../lessons/06-hilos-verdes/src/lib.rs:no_existe}}\n```\n",
            false,
        );
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(
            (p[0].tipo, &p[0].lugar),
            (Tipo::AnclaQueFalta, &crate::error::Lugar::Archivo { ruta: "book/prueba.md".into(), linea: Some(3) })
        );
        assert_eq!(tipos("```text\n{{#include ../no/existe.rs}}\n```\n", false), [Tipo::IncludeRoto]);
    }

    #[test]
    fn compile_fail_necesita_su_caso_de_trybuild() {
        let bueno = "```rust,compile_fail\n{{#include ../no-compila/tests/ui/06-hilos-verdes/rc_en_await.rs}}\n```\n";
        assert_eq!(tipos(bueno, true), []);
        let malo = "```rust,compile_fail\nfn main() { let x: u8 = \"no\"; }\n```\n";
        assert_eq!(tipos(malo, true), [Tipo::BloqueSinCompilar]);
    }

    #[test]
    fn los_enlaces_rotos_son_problemas() {
        assert_eq!(tipos("[x](no-existe.md)\n", false), [Tipo::EnlaceRoto]);
        assert_eq!(tipos("[x](../lessons/no-existe/)\n", false), [Tipo::EnlaceRoto]);
        assert_eq!(tipos("[x](../lessons/06-hilos-verdes/src/main.rs)\n", false), []);
        assert_eq!(tipos("[x](https://tokio.rs)\n", false), []);
    }
}
