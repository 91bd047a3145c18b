//! Qué bloques de Rust del libro llevan el botón «Ejecutar» del Playground
//! de Rust, decidido con una regla y no a mano:
//!
//! - un bloque se puede ejecutar allí si es un programa completo (o un
//!   bloque en línea, que mdbook envuelve en un `fn main`, como hace
//!   rustdoc con las pruebas de documentación) y solo usa la biblioteca
//!   estándar, `tokio` y `futures`, que el Playground tiene
//!   ([`CRATES_DEL_PLAYGROUND`]; tokio con `full` y `test-util`);
//! - no se puede si usa otro *crate* (el de su lección, `tokio_test`,
//!   `loom`...), si es un trozo de un archivo (`crate::`, `super::`,
//!   `mod x;`, sin `main`), si es `no_run` (un servidor, un cliente de
//!   red) o si necesita `--cfg tokio_unstable`.
//!
//! Los que no se pueden ejecutar llevan `noplayground` y, debajo, la orden
//! que los ejecuta en tu copia del curso y, si vienen de un archivo, un
//! enlace a él. Los que sí, el botón (book.js lo pone en todo bloque
//! `playground` sin preguntar al Playground qué *crates* tiene, así que
//! ninguna página habla con él hasta que quien lee pulsa el botón).

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::Path;
use std::sync::LazyLock;

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use regex::Regex;

use super::enlaces::Repositorio;
use crate::modelo::{Capitulo, Grupo, normalizar};

/// Los *crates* que el Playground de Rust tiene y el libro usa.
pub const CRATES_DEL_PLAYGROUND: &[&str] = &["std", "core", "alloc", "tokio", "futures"];

/// Un bloque de Rust de una página.
#[derive(Debug, Clone)]
struct Bloque {
    rango: Range<usize>,
    marcas: Vec<String>,
    codigo: String,
}

/// Los bloques ```` ```rust ```` de un texto, como los lee mdbook.
fn bloques(texto: &str) -> Vec<Bloque> {
    let opciones = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut v = Vec::new();
    let mut actual: Option<Bloque> = None;
    for (evento, rango) in Parser::new_ext(texto, opciones).into_offset_iter() {
        match evento {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                let mut partes = info.split([',', ' ']).filter(|m| !m.is_empty()).map(String::from);
                if partes.next().as_deref() == Some("rust") {
                    actual = Some(Bloque { rango, marcas: partes.collect(), codigo: String::new() });
                }
            }
            Event::Text(t) => {
                if let Some(b) = actual.as_mut() {
                    b.codigo.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => v.extend(actual.take()),
            _ => {}
        }
    }
    v
}

/// ¿Se puede ejecutar este código en el Playground, tal cual?
pub fn autocontenido(codigo: &str, incluido: bool) -> bool {
    static FN_MAIN: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\bfn\s+main\s*\(").unwrap());
    static DE_FUERA: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b(crate|super)\s*::|\bmod\s+\w+\s*;|\binclude(_str|_bytes)?!|#\[path\b|tokio_unstable").unwrap()
    });
    let limpio = sin_comentarios_ni_cadenas(codigo);
    if DE_FUERA.is_match(&limpio) || (incluido && !FN_MAIN.is_match(&limpio)) {
        return false;
    }
    raices(&limpio).iter().all(|r| CRATES_DEL_PLAYGROUND.contains(&r.as_str()))
}

/// Los *crates* que nombra el código: las raíces de sus `use`, de sus
/// `extern crate` y de las rutas `algo::` que no son nombres suyos.
fn raices(codigo: &str) -> BTreeSet<String> {
    static USE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\buse\s+(?:::)?([^;]*);").unwrap());
    static EXTERN: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\bextern\s+crate\s+(\w+)").unwrap());
    static IDENT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[A-Za-z_]\w*").unwrap());
    static DECLARADO: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b(?:mod|fn|struct|enum|trait|type|union|const|static|let|for)\s+(?:mut\s+)?([a-z_]\w*)").unwrap()
    });
    static RUTA: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(^|[^\w:.])([a-z_]\w*)\s*::\s*(<)?").unwrap());
    const PRIMITIVOS: &[&str] = &[
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32", "f64", "bool",
        "char", "str", "self",
    ];
    let mut raices = BTreeSet::new();
    let mut propios: BTreeSet<String> = PRIMITIVOS.iter().map(|s| s.to_string()).collect();
    for c in USE.captures_iter(codigo) {
        let arbol = &c[1];
        if let Some(primero) = IDENT.find(arbol) {
            raices.insert(primero.as_str().to_string());
        }
        propios.extend(IDENT.find_iter(arbol).map(|m| m.as_str().to_string()));
    }
    raices.extend(EXTERN.captures_iter(codigo).map(|c| c[1].to_string()));
    propios.extend(DECLARADO.captures_iter(codigo).map(|c| c[1].to_string()));
    let sin_use = USE.replace_all(codigo, " ");
    for c in RUTA.captures_iter(&sin_use) {
        let nombre = &c[2];
        if c.get(3).is_none() && !propios.contains(nombre) {
            raices.insert(nombre.to_string());
        }
    }
    raices.remove("self");
    raices
}

/// El código con los comentarios, las cadenas y los caracteres en blanco.
fn sin_comentarios_ni_cadenas(codigo: &str) -> String {
    let c: Vec<char> = codigo.chars().collect();
    let mut salida = String::with_capacity(codigo.len());
    let mut i = 0;
    while i < c.len() {
        let siguiente = c.get(i + 1).copied();
        if c[i] == '/' && siguiente == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && siguiente == Some('*') {
            while i + 1 < c.len() && !(c[i] == '*' && c[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c[i] == '"'
            || (c[i] == 'r' && matches!(siguiente, Some('"' | '#')) && !es_letra(c.get(i.wrapping_sub(1))))
        {
            let mut almohadillas = 0;
            if c[i] == 'r' {
                i += 1;
                while c.get(i) == Some(&'#') {
                    almohadillas += 1;
                    i += 1;
                }
            }
            let crudo = c.get(i.wrapping_sub(1)) == Some(&'r') || almohadillas > 0;
            i += 1;
            while i < c.len() {
                if c[i] == '\\' && !crudo {
                    i += 2;
                    continue;
                }
                if c[i] == '"' && (i + 1..=i + almohadillas).all(|j| c.get(j) == Some(&'#')) {
                    i += 1 + almohadillas;
                    break;
                }
                i += 1;
            }
            salida.push_str("\"\"");
        } else if c[i] == '\'' && (siguiente == Some('\\') || c.get(i + 2) == Some(&'\'')) {
            i += 1;
            while i < c.len() && c[i] != '\'' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            salida.push_str("' '");
        } else {
            salida.push(c[i]);
            i += 1;
        }
    }
    salida
}

fn es_letra(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

/// El archivo que incluye un bloque (`{{#include ../lessons/x/y.rs:ancla}}`),
/// desde la raíz: `lessons/x/y.rs`.
fn incluido(bloque_original: &str, carpeta: &Path, raiz: &Path) -> Option<String> {
    let dentro = bloque_original.split("{{#include ").nth(1)?.split("}}").next()?;
    let ruta = dentro.trim().split(':').next()?;
    let absoluta = normalizar(&carpeta.join(ruta));
    Some(absoluta.strip_prefix(raiz).ok()?.to_string_lossy().replace('\\', "/"))
}

/// El nombre del paquete de la carpeta `carpeta` (relativa a la raíz).
fn paquete(raiz: &Path, carpeta: &str) -> Option<String> {
    let texto = std::fs::read_to_string(raiz.join(carpeta).join("Cargo.toml")).ok()?;
    let tabla: toml::Table = texto.parse().ok()?;
    Some(tabla.get("package")?.get("name")?.as_str()?.to_string())
}

/// La orden que ejecuta, en tu copia, el archivo `archivo` (desde la raíz).
fn orden_del_archivo(raiz: &Path, archivo: &str) -> Option<String> {
    let partes: Vec<&str> = archivo.split('/').collect();
    if partes.first() == Some(&"no-compila") {
        return Some("cargo test -p no-compila".to_string());
    }
    let (grupo, carpeta) = (partes.first()?, partes.get(1)?);
    let nombre = paquete(raiz, &format!("{grupo}/{carpeta}"))?;
    let bin = match partes.get(2..) {
        Some(["src", "bin", archivo]) => format!(" --bin {}", archivo.trim_end_matches(".rs")),
        _ => String::new(),
    };
    Some(match *grupo {
        g if g == Grupo::Lecciones.carpeta() => format!("cargo run -p {nombre} --release{bin}"),
        g if g == Grupo::Soluciones.carpeta() => format!("cargo run -p {nombre}{bin}"),
        _ => format!("cargo test -p {nombre}"),
    })
}

/// Lo que se sabe de la página para decidir: su raíz y su carpeta, su
/// capítulo, su texto original (antes de los `{{#include}}`) y el repositorio.
pub struct Pagina<'a> {
    pub raiz: &'a Path,
    pub carpeta: &'a Path,
    /// `06-hilos-verdes`, si la página es un capítulo.
    pub capitulo: Option<&'a str>,
    pub original: &'a str,
    pub repositorio: &'a Repositorio,
}

/// Marca los bloques de Rust de `contenido` (ya con los `{{#include}}`
/// hechos): `noplayground` y la orden debajo en los que no se pueden
/// ejecutar en el Playground; `mdbook-runnable` en los incluidos que sí.
pub fn marcar(contenido: &str, pagina: &Pagina) -> String {
    let bloques = bloques(contenido);
    let originales = bloques_originales(pagina.original);
    let mismos = originales.len() == bloques.len();
    let mut nuevo = contenido.to_string();
    for (i, b) in bloques.iter().enumerate().rev() {
        let archivo = if mismos { incluido(&originales[i], pagina.carpeta, pagina.raiz) } else { None };
        let tiene = |m: &str| b.marcas.iter().any(|x| x == m);
        let ejecutable = !tiene("no_run") && !tiene("noplayground") && autocontenido(&b.codigo, archivo.is_some());
        let (marca, pie) = match (ejecutable, tiene("ignore")) {
            (true, true) => (Some("mdbook-runnable"), None),
            (true, false) => (None, None),
            (false, _) => (Some("noplayground"), pie(pagina, archivo.as_deref())),
        };
        if let Some(pie) = pie {
            insertar_pie(&mut nuevo, &b.rango, &pie);
        }
        if let Some(marca) = marca {
            poner_marca(&mut nuevo, b.rango.start, marca);
        }
    }
    nuevo
}

/// El texto de cada bloque de Rust del original, con sus directivas.
fn bloques_originales(original: &str) -> Vec<String> {
    bloques(original).into_iter().map(|b| original[b.rango].to_string()).collect()
}

/// La línea de debajo de un bloque que no se ejecuta en el Playground.
fn pie(pagina: &Pagina, archivo: Option<&str>) -> Option<String> {
    let (que, orden) = match archivo {
        Some(archivo) => {
            let url = format!("{}/blob/{}/{archivo}", pagina.repositorio.url, pagina.repositorio.rama);
            (format!("Es parte de <a href=\"{url}\">{archivo}</a>."), orden_del_archivo(pagina.raiz, archivo)?)
        }
        None => {
            let capitulo = Capitulo::de_nombre(pagina.capitulo?)?;
            let orden = format!("cargo test -p {} --doc", capitulo.paquete(Grupo::Lecciones));
            ("Lo compila la lección como prueba de documentación.".to_string(), orden)
        }
    };
    Some(format!("<p class=\"bloque-en-tu-copia\">{que} En tu copia del curso: <code>{orden}</code></p>"))
}

/// Añade `marca` a la línea de apertura del bloque que empieza en `inicio`.
fn poner_marca(texto: &mut String, inicio: usize, marca: &str) {
    let fin_de_linea = texto[inicio..].find('\n').map_or(texto.len(), |f| inicio + f);
    texto.insert_str(fin_de_linea, &format!(",{marca}"));
}

/// Pone `pie` debajo del bloque de `rango`, con el mismo sangrado o la misma
/// cita que el bloque, y separado por líneas en blanco.
fn insertar_pie(texto: &mut String, rango: &Range<usize>, pie: &str) {
    let inicio_de_linea = texto[..rango.start].rfind('\n').map_or(0, |i| i + 1);
    let prefijo = texto[inicio_de_linea..rango.start].to_string();
    let prefijo =
        if prefijo.trim_start().starts_with('>') || prefijo.trim().is_empty() { prefijo } else { String::new() };
    let ultimo = rango.end.saturating_sub(1).max(rango.start);
    let tras_el_bloque = texto[ultimo..].find('\n').map_or(texto.len(), |f| ultimo + f + 1);
    let vacia = prefijo.trim_end();
    let mut insercion = format!("{vacia}\n{prefijo}{pie}\n{vacia}\n");
    if tras_el_bloque == texto.len() && !texto.ends_with('\n') {
        insercion.insert(0, '\n');
    }
    texto.insert_str(tras_el_bloque, &insercion);
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn solo_std_tokio_y_futures_se_ejecutan() {
        let si = [
            "use std::thread;\nfn main() { thread::spawn(|| {}).join().unwrap(); }",
            "#[tokio::main]\nasync fn main() { tokio::time::sleep(std::time::Duration::from_millis(1)).await; }",
            "use futures::StreamExt;\nlet v: Vec<u8> = vec![];\nlet _ = u64::MAX; let n = v.iter().collect::<Vec<_>>();",
            "// usa leccion_06::x, pero es un comentario\nlet s = \"nucleo::Config\"; let c = '\\''; fn f<'a>(x: &'a str) {}",
            "use std::sync::{Arc, atomic::{AtomicUsize, Ordering}};\nfn main() { let _ = Ordering::SeqCst; }",
        ];
        for codigo in si {
            assert!(autocontenido(codigo, false), "debería poder ejecutarse: {codigo}");
        }
        let no = [
            "use nucleo::{Config, Nucleo};\nfn main() {}",
            "let mut t = tokio_test::task::spawn(async {});",
            "fn main() { loom::model(|| {}); }",
            "use crate::tarea::Tarea;\nfn main() {}",
            "mod otra;\nfn main() {}",
            "#[cfg(tokio_unstable)]\nfn main() {}",
        ];
        for codigo in no {
            assert!(!autocontenido(codigo, false), "no debería poder ejecutarse: {codigo}");
        }
        assert!(!autocontenido("async fn trozo() {}", true), "un trozo incluido sin main no se ejecuta");
    }

    #[test]
    fn los_bloques_que_no_se_ejecutan_llevan_su_orden_debajo() {
        let repositorio = Repositorio { url: "https://g/a/b".into(), rama: "main".into() };
        let raiz = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let original = "Uno:\n\n```rust\nuse leccion_06::x;\n```\nSigue.\n\n> ```rust,ignore\n> {{#include ../lessons/06-hilos-verdes/src/main.rs:lanzar}}\n> ```\n\n```rust\nfn main() {}\n```\n";
        let contenido = "Uno:\n\n```rust\nuse leccion_06::x;\n```\nSigue.\n\n> ```rust,ignore\n> let n = crate::x();\n> ```\n\n```rust\nfn main() {}\n```\n";
        let pagina = Pagina {
            raiz,
            carpeta: &raiz.join("book"),
            capitulo: Some("06-hilos-verdes"),
            original,
            repositorio: &repositorio,
        };
        let hecho = marcar(contenido, &pagina);
        assert!(
            hecho.contains("```rust,noplayground\nuse leccion_06::x;\n```\n\n<p class=\"bloque-en-tu-copia\">"),
            "{hecho}"
        );
        assert!(hecho.contains("<code>cargo test -p leccion-06 --doc</code></p>\n\nSigue."), "{hecho}");
        assert!(hecho.contains("> ```rust,ignore,noplayground\n"), "{hecho}");
        assert!(
            hecho.contains("> <p class=\"bloque-en-tu-copia\">Es parte de <a href=\"https://g/a/b/blob/main/lessons/06-hilos-verdes/src/main.rs\">"),
            "{hecho}"
        );
        assert!(hecho.contains("<code>cargo run -p leccion-06 --release</code></p>\n>\n"), "{hecho}");
        assert!(hecho.ends_with("```rust\nfn main() {}\n```\n"), "el último se ejecuta, sin marca: {hecho}");
    }
}
