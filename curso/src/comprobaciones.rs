//! Revisa las fuentes del libro (`book/*.md`) sin construirlo:
//!
//! - cada bloque ```` ```rust ```` se compila: o es código en línea que el
//!   crate de la lección compila como prueba de documentación
//!   (`#[doc = include_str!("../../../book/NN-....md")]`), o es un
//!   `{{#include ruta:ancla}}` de un archivo de un crate del espacio de
//!   trabajo (marcado `rust,ignore`, porque ya lo compila su crate), o es un
//!   `rust,compile_fail` que incluye un caso de `tests/ui/` con su `.stderr`;
//! - ningún diagrama Mermaid está dentro de una cita (`>`), donde no se dibuja;
//! - cada `{{#include}}` apunta a un archivo y un ancla que existen;
//! - cada enlace relativo resuelve: a otra página del libro o a un archivo
//!   del espacio de trabajo;
//! - cada capítulo `NN-tema.md` tiene `lessons/`, `exercises/` y `solutions/`
//!   con la misma carpeta, y al revés;
//! - cada número con unidad de la prosa está en el registro de mediciones
//!   (ver [`crate::mediciones`]);
//! - cada cita lleva a una entrada de `book/referencias.md`, cada entrada se
//!   cita y tiene su enlace, y nada cita un texto que quien lee no tiene
//!   (ver [`crate::referencias`]).

use std::fs;
use std::path::{Path, PathBuf};

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

use crate::verificacion::normalizar;

/// Revisa todo el libro de `raiz`. Devuelve los problemas encontrados.
pub fn comprobar_libro(raiz: &Path) -> Vec<String> {
    let libro = raiz.join("book");
    let mut problemas = Vec::new();
    let incluidos = capitulos_con_doctest(raiz);
    let mut paginas: Vec<PathBuf> = match fs::read_dir(&libro) {
        Ok(d) => d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "md")).collect(),
        Err(e) => return vec![format!("no puedo leer book/: {e}")],
    };
    paginas.sort();
    for pagina in &paginas {
        let Ok(texto) = fs::read_to_string(pagina) else {
            problemas.push(format!("no puedo leer {}", pagina.display()));
            continue;
        };
        let nombre = pagina.file_name().unwrap().to_string_lossy().into_owned();
        let tiene_doctest = incluidos.iter().any(|i| i == &nombre);
        for p in comprobar_pagina(raiz, pagina, &texto, tiene_doctest) {
            problemas.push(format!("book/{nombre}: {p}"));
        }
    }
    problemas.extend(comprobar_carpetas(raiz, &paginas));
    problemas.extend(comprobar_capitulos(raiz, &paginas));
    problemas.extend(crate::mediciones::comprobar(raiz));
    problemas.extend(crate::referencias::comprobar(raiz));
    problemas
}

/// Los nombres de los paquetes del espacio de trabajo.
pub fn paquetes(raiz: &Path) -> Vec<String> {
    let mut nombres = Vec::new();
    let mut manifiestos = vec![raiz.join("curso/Cargo.toml")];
    for grupo in ["lessons", "exercises", "solutions"] {
        for entrada in fs::read_dir(raiz.join(grupo)).into_iter().flatten().flatten() {
            manifiestos.push(entrada.path().join("Cargo.toml"));
        }
    }
    for m in manifiestos {
        let Ok(texto) = fs::read_to_string(&m) else { continue };
        let Ok(tabla) = texto.parse::<toml::Table>() else { continue };
        if let Some(nombre) = tabla.get("package").and_then(|p| p.get("name")).and_then(|n| n.as_str()) {
            nombres.push(nombre.to_string());
        }
    }
    nombres
}

/// Cada capítulo trae sus notas para quien enseña (con tiempo y preguntas) y
/// la tabla de ejercicios generada; cada `cargo run -p X` y `cargo test -p X`
/// del libro nombra un paquete que existe.
fn comprobar_capitulos(raiz: &Path, paginas: &[PathBuf]) -> Vec<String> {
    let mut problemas = Vec::new();
    let paquetes = paquetes(raiz);
    let lista = crate::ejercicios::cargar(raiz).unwrap_or_default();
    for pagina in paginas {
        let nombre = pagina.file_name().unwrap().to_string_lossy().into_owned();
        let texto = fs::read_to_string(pagina).unwrap_or_default();
        for orden in ["cargo run -p ", "cargo test -p ", "cargo run --release -p "] {
            for trozo in texto.split(orden).skip(1) {
                let paquete: String =
                    trozo.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
                if paquete.is_empty() || paquete.ends_with('-') || paquete == "X" || paquete.contains("NN") {
                    continue; // un ejemplo genérico, como `cargo test -p ejercicios-NN`
                }
                if !paquetes.contains(&paquete) {
                    problemas.push(format!("book/{nombre}: `{orden}{paquete}` nombra un paquete que no existe"));
                }
            }
        }
        let stem = nombre.trim_end_matches(".md");
        if !crate::libro::es_capitulo(stem) {
            continue;
        }
        if !texto.contains("<details class=\"instructor\">") {
            problemas
                .push(format!("book/{nombre}: faltan las notas para quien enseña (<details class=\"instructor\">)"));
        }
        if crate::libro::tiempo_estimado(&texto).is_none() {
            problemas.push(format!("book/{nombre}: las notas no dicen «**Tiempo estimado:** N minutos»"));
        }
        if !texto.contains("**Preguntas para la sala:**") {
            problemas.push(format!("book/{nombre}: las notas no traen «**Preguntas para la sala:**»"));
        }
        if lista.iter().any(|e| e.capitulo == stem) && !texto.contains("{{#ejercicios}}") {
            problemas.push(format!(
                "book/{nombre}: usa {{{{#ejercicios}}}} para la tabla de ejercicios (sale de {})",
                crate::ejercicios::LISTA
            ));
        }
    }
    problemas
}

/// Las páginas del libro que algún crate incluye como pruebas de documentación.
fn capitulos_con_doctest(raiz: &Path) -> Vec<String> {
    let mut nombres = Vec::new();
    for grupo in ["lessons", "solutions", "curso"] {
        let mut pendientes = vec![raiz.join(grupo)];
        while let Some(dir) = pendientes.pop() {
            for entrada in fs::read_dir(&dir).into_iter().flatten().flatten() {
                let ruta = entrada.path();
                if ruta.is_dir() && entrada.file_name() != "target" {
                    pendientes.push(ruta);
                } else if ruta.extension().is_some_and(|x| x == "rs") {
                    let texto = fs::read_to_string(&ruta).unwrap_or_default();
                    for trozo in texto.split("include_str!(\"").skip(1) {
                        let incluido = trozo.split('"').next().unwrap_or_default();
                        let absoluto = normalizar(&ruta.parent().unwrap().join(incluido));
                        if absoluto.starts_with(raiz.join("book")) && texto.contains("#[cfg(doctest)]") {
                            nombres.push(absoluto.file_name().unwrap().to_string_lossy().into_owned());
                        }
                    }
                }
            }
        }
    }
    nombres
}

/// Un bloque de código del libro.
#[derive(Debug)]
struct Bloque {
    info: String,
    codigo: String,
    en_cita: bool,
    linea: usize,
}

/// Revisa una página. `tiene_doctest`: algún crate la compila como doctest.
pub fn comprobar_pagina(raiz: &Path, pagina: &Path, texto: &str, tiene_doctest: bool) -> Vec<String> {
    let mut problemas = Vec::new();
    let carpeta = pagina.parent().unwrap_or(Path::new("."));
    let mut bloques = Vec::new();
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
            Event::Text(t) if actual.is_some() => actual.as_mut().unwrap().codigo.push_str(&t),
            Event::End(TagEnd::CodeBlock) => bloques.extend(actual.take()),
            Event::Start(Tag::Link { dest_url, .. }) | Event::Start(Tag::Image { dest_url, .. }) => {
                if let Some(p) = comprobar_enlace(raiz, carpeta, &dest_url) {
                    problemas.push(format!("línea {}: {p}", linea_de(rango.start)));
                }
            }
            _ => {}
        }
    }
    for b in &bloques {
        let lenguaje = b.info.split([',', ' ']).next().unwrap_or_default();
        let marcas: Vec<&str> = b.info.split([',', ' ']).skip(1).filter(|m| !m.is_empty()).collect();
        let directivas = directivas_include(&b.codigo);
        let solo_includes =
            !directivas.is_empty() && b.codigo.lines().filter(|l| !l.trim().is_empty()).count() == directivas.len();
        for d in &directivas {
            if let Some(p) = comprobar_include(raiz, carpeta, d) {
                problemas.push(format!("línea {}: {p}", b.linea));
            }
        }
        if lenguaje == "mermaid" && b.en_cita {
            problemas.push(format!(
                "línea {}: un diagrama Mermaid dentro de una cita (>) no se dibuja; sácalo de la cita",
                b.linea
            ));
        }
        if lenguaje != "rust" {
            continue;
        }
        let ignore = marcas.contains(&"ignore");
        let compile_fail = marcas.contains(&"compile_fail");
        if solo_includes {
            if compile_fail {
                for d in &directivas {
                    let ruta = d.split(':').next().unwrap_or_default();
                    let absoluta = normalizar(&carpeta.join(ruta));
                    let es_caso = absoluta.parent().is_some_and(|p| p.ends_with("tests/ui"));
                    if !es_caso || !absoluta.with_extension("stderr").is_file() {
                        problemas.push(format!(
                            "línea {}: un bloque compile_fail debe incluir un caso de tests/ui/ con su .stderr",
                            b.linea
                        ));
                    }
                }
            } else if !ignore {
                problemas.push(format!(
                    "línea {}: un bloque que solo incluye código de un crate se marca ```rust,ignore \
                     (ya lo compila su crate)",
                    b.linea
                ));
            }
        } else if ignore || compile_fail {
            problemas.push(format!(
                "línea {}: este bloque no se compilaría: quita `ignore`/`compile_fail` o incluye el código \
                 de un crate (o de un caso de tests/ui/)",
                b.linea
            ));
        } else if !tiene_doctest {
            problemas.push(format!(
                "línea {}: este bloque de Rust no lo compila nadie: incluye la página con \
                 #[cfg(doctest)] #[doc = include_str!(...)] en el crate de su lección",
                b.linea
            ));
        }
    }
    problemas
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
fn comprobar_include(raiz: &Path, carpeta: &Path, directiva: &str) -> Option<String> {
    let (ruta, ancla) = directiva.split_once(':').map_or((directiva, None), |(r, a)| (r, Some(a)));
    let absoluta = normalizar(&carpeta.join(ruta));
    let Ok(texto) = fs::read_to_string(&absoluta) else {
        return Some(format!("{{{{#include {directiva}}}}}: no existe {ruta}"));
    };
    if !absoluta.starts_with(raiz) {
        return Some(format!("{{{{#include {directiva}}}}}: el archivo está fuera del repositorio"));
    }
    if let Some(ancla) = ancla.filter(|a| !a.chars().next().is_some_and(|c| c.is_ascii_digit())) {
        let abre = texto.lines().any(|l| l.trim_end().ends_with(&format!("ANCHOR: {ancla}")));
        let cierra = texto.lines().any(|l| l.trim_end().ends_with(&format!("ANCHOR_END: {ancla}")));
        if !abre || !cierra {
            return Some(format!("{{{{#include {directiva}}}}}: falta el ancla «{ancla}» en {ruta}"));
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

/// Cada capítulo `book/NN-tema.md` tiene sus tres carpetas, y cada carpeta su capítulo.
fn comprobar_carpetas(raiz: &Path, paginas: &[PathBuf]) -> Vec<String> {
    let mut problemas = Vec::new();
    let capitulos: Vec<String> = paginas
        .iter()
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .filter(|n| crate::libro::es_capitulo(n))
        .collect();
    for grupo in ["lessons", "exercises", "solutions"] {
        for c in &capitulos {
            if !raiz.join(grupo).join(c).join("Cargo.toml").is_file() {
                problemas.push(format!("el capítulo book/{c}.md no tiene {grupo}/{c}/"));
            }
        }
        // `cargo run -p leccion-NN` (y soluciones-NN) debe saber qué programa ejecutar.
        if grupo != "exercises" {
            for c in &capitulos {
                let dir = raiz.join(grupo).join(c);
                let Ok(texto) = fs::read_to_string(dir.join("Cargo.toml")) else { continue };
                let mut programas = usize::from(dir.join("src/main.rs").is_file());
                programas += fs::read_dir(dir.join("src/bin")).into_iter().flatten().flatten().count();
                programas += texto.matches("[[bin]]").count();
                let tabla = texto.parse::<toml::Table>().unwrap_or_default();
                let tiene_defecto = tabla.get("package").and_then(|p| p.get("default-run")).is_some();
                if programas > 1 && !tiene_defecto {
                    problemas.push(format!(
                        "{grupo}/{c}/ tiene {programas} programas y ningún default-run: `cargo run -p` no sabría cuál ejecutar"
                    ));
                }
            }
        }
        if grupo == "solutions" {
            for c in capitulos.iter().filter(|c| raiz.join(grupo).join(c).is_dir()) {
                if !raiz.join(grupo).join(c).join("src/main.rs").is_file() {
                    problemas.push(format!(
                        "{grupo}/{c}/ no tiene src/main.rs: `cargo run -p soluciones-{}` debe mostrar la solución",
                        &c[..2]
                    ));
                }
            }
        }
        for entrada in fs::read_dir(raiz.join(grupo)).into_iter().flatten().flatten() {
            let nombre = entrada.file_name().to_string_lossy().into_owned();
            if entrada.path().is_dir() && !capitulos.contains(&nombre) {
                problemas.push(format!("{grupo}/{nombre} no tiene capítulo book/{nombre}.md"));
            }
        }
    }
    problemas
}

/// Revisa el HTML construido: cada `href` y `src` interno lleva a un archivo
/// que existe y, si tiene fragmento (`#ancla`), a un `id` que existe en esa
/// página; cada enlace al repositorio lleva a un archivo del espacio de trabajo.
pub fn comprobar_html(destino: &Path, raiz: &Path, repositorio: &str) -> Vec<String> {
    let mut problemas = Vec::new();
    let mut paginas: Vec<PathBuf> = Vec::new();
    let mut pendientes = vec![destino.to_path_buf()];
    while let Some(dir) = pendientes.pop() {
        for entrada in fs::read_dir(&dir).into_iter().flatten().flatten() {
            let ruta = entrada.path();
            if ruta.is_dir() {
                pendientes.push(ruta);
            } else if ruta.extension().is_some_and(|x| x == "html") {
                paginas.push(ruta);
            }
        }
    }
    paginas.sort();
    let mut ids: std::collections::HashMap<PathBuf, std::collections::HashSet<String>> = Default::default();
    let mut ids_de = |ruta: &Path| -> std::collections::HashSet<String> {
        ids.entry(ruta.to_path_buf())
            .or_insert_with(|| {
                let html = fs::read_to_string(ruta).unwrap_or_default();
                valores_de(&html, "id=\"").into_iter().map(|(v, _)| v).collect()
            })
            .clone()
    };
    let prefijo_repo = format!("{}/", repositorio.trim_end_matches('/'));
    for pagina in &paginas {
        let html = fs::read_to_string(pagina).unwrap_or_default();
        let nombre = pagina.strip_prefix(destino).unwrap_or(pagina).display().to_string();
        // 404.html usa rutas absolutas desde la raíz del sitio (site-url).
        if nombre == "404.html" {
            continue;
        }
        let mut vistos = std::collections::HashSet::new();
        for (valor, _) in valores_de(&html, "href=\"").into_iter().chain(valores_de(&html, "src=\"")) {
            if !vistos.insert(valor.clone()) {
                continue;
            }
            let valor = valor.replace("&amp;", "&");
            if let Some(resto) = valor.strip_prefix(&prefijo_repo) {
                // .../blob/main/ruta o .../tree/main/ruta o .../edit/main/ruta
                let ruta = resto.splitn(3, '/').nth(2).unwrap_or_default();
                let ruta = ruta.split('#').next().unwrap_or_default().trim_end_matches('/');
                if (resto.starts_with("blob/") || resto.starts_with("tree/") || resto.starts_with("edit/"))
                    && !raiz.join(ruta).exists()
                {
                    problemas
                        .push(format!("{nombre}: el enlace al repositorio {valor} lleva a un archivo que no existe"));
                }
                continue;
            }
            if valor.contains("://")
                || valor.starts_with("mailto:")
                || valor.starts_with("data:")
                || valor.starts_with("javascript:")
            {
                continue;
            }
            let (ruta, fragmento) = valor.split_once('#').map_or((valor.as_str(), None), |(r, f)| (r, Some(f)));
            let ruta = ruta.split('?').next().unwrap_or_default();
            let objetivo = if ruta.is_empty() {
                pagina.clone()
            } else {
                let o = normalizar(&pagina.parent().unwrap().join(ruta));
                if o.is_dir() { o.join("index.html") } else { o }
            };
            if !objetivo.is_file() {
                problemas.push(format!("{nombre}: el enlace «{valor}» no lleva a ningún archivo"));
                continue;
            }
            if let Some(f) = fragmento.filter(|f| !f.is_empty())
                && objetivo.extension().is_some_and(|x| x == "html")
                && !ids_de(&objetivo).contains(f)
            {
                problemas.push(format!("{nombre}: el enlace «{valor}» apunta a un ancla que no existe"));
            }
        }
    }
    problemas
}

/// Los valores de un atributo (`id="`, `href="`) en un HTML, con su posición.
fn valores_de(html: &str, atributo: &str) -> Vec<(String, usize)> {
    let mut salida = Vec::new();
    let mut desde = 0;
    while let Some(p) = html[desde..].find(atributo) {
        let inicio = desde + p + atributo.len();
        // Que sea el atributo entero (` id="`), no el final de otro (`data-id="`).
        let antes = html[..desde + p].chars().last();
        let Some(fin) = html[inicio..].find('"') else { break };
        if antes.is_some_and(|c| c.is_whitespace()) {
            salida.push((html[inicio..inicio + fin].to_string(), inicio));
        }
        desde = inicio + fin;
    }
    salida
}

#[cfg(test)]
mod pruebas {
    use super::*;

    fn raiz() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
    }

    fn problemas(texto: &str, doctest: bool) -> Vec<String> {
        comprobar_pagina(&raiz(), &raiz().join("book/prueba.md"), texto, doctest)
    }

    #[test]
    fn mermaid_en_una_cita_es_un_problema() {
        let p = problemas("> ```mermaid\n> flowchart TD\n> A-->B\n> ```\n", false);
        assert!(p.iter().any(|p| p.contains("dentro de una cita")), "{p:?}");
        assert!(problemas("```mermaid\nflowchart TD\nA-->B\n```\n", false).is_empty());
    }

    #[test]
    fn un_bloque_de_rust_sin_doctest_es_un_problema() {
        let bloque = "```rust\nfn main() {}\n```\n";
        assert!(!problemas(bloque, false).is_empty());
        assert!(problemas(bloque, true).is_empty());
    }

    #[test]
    fn ignore_solo_vale_para_includes() {
        let p = problemas("```rust,ignore\nfn main() {}\n```\n", true);
        assert!(p.iter().any(|p| p.contains("no se compilaría")), "{p:?}");
        let include = "```rust,ignore\n{{#include ../lessons/06-hilos-verdes/src/lib.rs:contador}}\n```\n";
        assert_eq!(problemas(include, false), Vec::<String>::new());
        let sin_ignore = "```rust\n{{#include ../lessons/06-hilos-verdes/src/lib.rs:contador}}\n```\n";
        assert!(!problemas(sin_ignore, true).is_empty());
    }

    #[test]
    fn un_ancla_que_no_existe_es_un_problema() {
        let p = problemas("```rust,ignore\n{{#include ../lessons/06-hilos-verdes/src/lib.rs:no_existe}}\n```\n", false);
        assert!(p.iter().any(|p| p.contains("falta el ancla")), "{p:?}");
        let p = problemas("```text\n{{#include ../no/existe.rs}}\n```\n", false);
        assert!(p.iter().any(|p| p.contains("no existe")), "{p:?}");
    }

    #[test]
    fn compile_fail_necesita_su_caso_de_trybuild() {
        let bueno = "```rust,compile_fail\n{{#include ../lessons/06-hilos-verdes/tests/ui/rc_en_await.rs}}\n```\n";
        assert_eq!(problemas(bueno, true), Vec::<String>::new());
        let malo = "```rust,compile_fail\nfn main() { let x: u8 = \"no\"; }\n```\n";
        assert!(!problemas(malo, true).is_empty());
    }

    #[test]
    fn un_ancla_rota_en_el_html_es_un_problema() {
        let dir = std::env::temp_dir().join(format!("curso-html-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("a.html"), r#"<a href="b.html#bien">x</a> <a href="b.html#mal">y</a> <a href="c.html">z</a> <a data-id="q" href="https://tokio.rs">t</a>"#).unwrap();
        fs::write(dir.join("b.html"), r#"<h2 id="bien">B</h2><p data-id="mal"></p>"#).unwrap();
        let p = comprobar_html(&dir, &raiz(), "https://github.com/a/b");
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(p[0].contains("b.html#mal") || p[1].contains("b.html#mal"), "{p:?}");
        assert!(p.iter().any(|x| x.contains("«c.html» no lleva")), "{p:?}");
    }

    #[test]
    fn los_enlaces_rotos_son_problemas() {
        assert!(!problemas("[x](no-existe.md)\n", false).is_empty());
        assert!(!problemas("[x](../lessons/no-existe/)\n", false).is_empty());
        assert!(problemas("[x](../lessons/06-hilos-verdes/src/main.rs)\n", false).is_empty());
        assert!(problemas("[x](https://tokio.rs)\n", false).is_empty());
    }
}
