//! Las referencias del libro: la página `book/referencias.md` y quién la cita.
//!
//! Cada entrada de la página es un encabezado con un ancla fija,
//! `### 7. Título {#ref-tokio-memoria-tarea}`, seguido de lo que el curso saca
//! de ella y de al menos un enlace `https://` fijado a una versión. Los
//! capítulos la citan con un enlace a `referencias.md#ref-...`, y los
//! registros de mediciones con `referencia = "tokio-memoria-tarea"`.
//!
//! [`comprobar`] falla cuando:
//!
//! - una página del libro o un registro nombra un archivo de fuera del
//!   repositorio o un texto que quien lee no tiene («hecho 7», `facts.md`,
//!   «la fuente», «el texto del que parte»...); en el código de `lessons/`,
//!   `exercises/` y `solutions/` (que el libro incluye), lo mismo salvo «la
//!   fuente», que en un comentario puede ser el código fuente;
//! - una cita usa un identificador que la página no tiene;
//! - una entrada no la cita nadie;
//! - una entrada no tiene ningún enlace `https://` (o tiene uno `http://`,
//!   o uno a docs.rs o a GitHub que no está fijado a una versión), o su
//!   encabezado no trae un ancla `{#ref-...}`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;

/// La página de referencias, desde la raíz del repositorio.
pub const PAGINA: &str = "book/referencias.md";
/// Lo que precede al identificador en el ancla: `ref-tokio-cola-local`.
pub const PREFIJO: &str = "ref-";

/// Una entrada de la página de referencias.
#[derive(Debug, Clone)]
pub struct Referencia {
    /// El identificador sin el prefijo: `tokio-cola-local`.
    pub id: String,
    /// El título, sin el número ni el ancla.
    pub titulo: String,
    /// La línea de su encabezado en la página.
    pub linea: usize,
    /// Los destinos de sus enlaces.
    pub enlaces: Vec<String>,
}

static ENCABEZADO: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^#{2,6}\s+(.*?)\s*$").unwrap());
static ANCLA: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\{#([^}\s]+)\}\s*$").unwrap());
static NUMERO_INICIAL: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\d+\.\s+").unwrap());
static ENLACE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\]\(([^)\s]+)\)|<(https?://[^>\s]+)>").unwrap());
static ID_VALIDO: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[a-z0-9]+(-[a-z0-9]+)*$").unwrap());
/// Un enlace a una entrada: `referencias.md#ref-x` desde otra página, o `#ref-x` desde la misma.
static CITA: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\]\((?:referencias\.md)?#([^)\s]*)\)").unwrap());
static CLAVE_REFERENCIA: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#"^\s*referencia\s*=\s*"([^"]*)""#).unwrap());

/// Lo que no puede aparecer en el libro ni en un registro, con el porqué.
static PROHIBIDOS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    let fuera = "nombra un archivo de fuera del repositorio, que quien lee no tiene";
    let oculta = "cita un texto que quien lee no tiene; cita una entrada de referencias.md \
                  o presenta la idea como argumento del curso";
    [
        (r"(?i)\bfacts\.md\b", fuera),
        (r"(?i)\.\./shared\b|/work/shared|\bshared/(reference|seeds|tools)\b", fuera),
        (r"(?i)\bseeds?/", fuera),
        (r"(?i)\bhechos?\s+\d+", oculta),
        (r"(?i)\breferencias del curso\b", oculta),
        (r"(?i)\btexto (del|de la) que part", oculta),
        (r"(?i)\btexto de origen\b", oculta),
        (r"(?i)\bfuentes? del curso\b", oculta),
        // Desde aquí, solo en el libro y los registros (no en el código).
        (r"(?i)\bfuentes? (de|en) (la )?que (se basa|parte)", oculta),
        (r"(?i)\bfuentes? de (este|esta) (capítulo|parte|curso|lección)", oculta),
        (r"(?i)\b(la|las|esa|esta|una|su|sus) fuentes?\b", oculta),
        (r"(?i)\bsemilla\s*=", oculta),
    ]
    .into_iter()
    .map(|(r, m)| (Regex::new(r).unwrap(), m))
    .collect()
});

/// Las entradas de la página de referencias de `raiz`, y los problemas de
/// forma de la propia página (anclas que faltan o se repiten, enlaces sin https).
pub fn cargar(raiz: &Path) -> Result<(Vec<Referencia>, Vec<String>), String> {
    let texto = fs::read_to_string(raiz.join(PAGINA)).map_err(|e| format!("no puedo leer {PAGINA}: {e}"))?;
    Ok(leer(&texto))
}

fn leer(texto: &str) -> (Vec<Referencia>, Vec<String>) {
    let mut entradas: Vec<Referencia> = Vec::new();
    let mut problemas = Vec::new();
    let mut en_entrada = false;
    let mut en_bloque = false;
    for (i, linea) in texto.lines().enumerate() {
        let n = i + 1;
        if linea.trim_start().starts_with("```") {
            en_bloque = !en_bloque;
            continue;
        }
        if en_bloque {
            continue;
        }
        if let Some(c) = ENCABEZADO.captures(linea) {
            let nivel = linea.chars().take_while(|&c| c == '#').count();
            let contenido = &c[1];
            en_entrada = false;
            if nivel != 3 {
                continue; // secciones (##) que agrupan entradas
            }
            let Some(a) = ANCLA.captures(contenido) else {
                problemas.push(format!("{PAGINA}:{n}: la entrada «{contenido}» no tiene ancla {{#{PREFIJO}...}}"));
                continue;
            };
            let ancla = &a[1];
            let Some(id) = ancla.strip_prefix(PREFIJO).filter(|id| ID_VALIDO.is_match(id)) else {
                problemas.push(format!(
                    "{PAGINA}:{n}: el ancla «{ancla}» debe ser {PREFIJO} seguido de minúsculas, cifras y guiones"
                ));
                continue;
            };
            if entradas.iter().any(|e| e.id == id) {
                problemas.push(format!("{PAGINA}:{n}: el ancla «{ancla}» está repetida"));
                continue;
            }
            let titulo = ANCLA.replace(contenido, "");
            let titulo = NUMERO_INICIAL.replace(titulo.trim(), "").to_string();
            entradas.push(Referencia { id: id.to_string(), titulo, linea: n, enlaces: Vec::new() });
            en_entrada = true;
            continue;
        }
        if en_entrada && let Some(e) = entradas.last_mut() {
            for c in ENLACE.captures_iter(linea) {
                let destino = c.get(1).or(c.get(2)).map_or("", |m| m.as_str());
                if sin_version(destino) {
                    problemas.push(format!(
                        "{PAGINA}:{n}: la entrada «{}» enlaza con {destino}, que no está fijado a una versión \
                         (usa docs.rs/CRATE/VERSIÓN/..., o una etiqueta o un commit en GitHub)",
                        e.titulo
                    ));
                }
                if destino.starts_with("http://") {
                    problemas.push(format!("{PAGINA}:{n}: la entrada «{}» enlaza con http://; usa https://", e.titulo));
                }
                e.enlaces.push(destino.to_string());
            }
        }
    }
    for e in &entradas {
        if !e.enlaces.iter().any(|d| d.starts_with("https://")) {
            problemas.push(format!(
                "{PAGINA}:{}: la entrada «{}» no tiene ningún enlace https:// que quien lee pueda seguir",
                e.linea, e.titulo
            ));
        }
    }
    (entradas, problemas)
}

/// Si un enlace no está fijado a una versión: docs.rs sin versión (o con
/// `latest`), o GitHub en una rama que se mueve.
fn sin_version(destino: &str) -> bool {
    if let Some(resto) = destino.strip_prefix("https://docs.rs/") {
        let mut partes = resto.split(['/', '#', '?']);
        let primera = partes.next().unwrap_or_default();
        if primera == "crate" {
            partes.next();
        }
        return !partes.next().is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()) && v.contains('.'));
    }
    let ramas = ["main", "master", "HEAD", "develop", "trunk"];
    destino.starts_with("https://github.com/")
        && ramas.iter().any(|r| destino.contains(&format!("/blob/{r}/")) || destino.contains(&format!("/tree/{r}/")))
}

/// El título de la entrada `id` (sin prefijo), si existe.
pub fn titulo(raiz: &Path, id: &str) -> Option<String> {
    let (entradas, _) = cargar(raiz).ok()?;
    entradas.into_iter().find(|e| e.id == id).map(|e| e.titulo)
}

/// Cuántas de las reglas de [`PROHIBIDOS`] valen también para el código.
const PROHIBIDOS_EN_CODIGO: usize = 8;

/// Las menciones prohibidas de un texto del libro o de un registro, como
/// `(línea, qué, porqué)`. Se saltan los bloques de código.
pub fn menciones_prohibidas(texto: &str) -> Vec<(usize, String, &'static str)> {
    menciones(texto, PROHIBIDOS.len())
}

/// Las menciones prohibidas en un archivo de código (sin «la fuente», que
/// en un comentario puede ser el código fuente).
pub fn menciones_prohibidas_en_codigo(texto: &str) -> Vec<(usize, String, &'static str)> {
    menciones(texto, PROHIBIDOS_EN_CODIGO)
}

fn menciones(texto: &str, reglas: usize) -> Vec<(usize, String, &'static str)> {
    let mut salida = Vec::new();
    let mut en_bloque = false;
    for (i, linea) in texto.lines().enumerate() {
        if linea.trim_start().trim_start_matches('>').trim_start().starts_with("```") {
            en_bloque = !en_bloque;
            continue;
        }
        if en_bloque {
            continue;
        }
        for (r, porque) in PROHIBIDOS.iter().take(reglas) {
            if let Some(m) = r.find(linea) {
                salida.push((i + 1, m.as_str().to_string(), *porque));
                break;
            }
        }
    }
    salida
}

/// Revisa la página de referencias, las citas del libro y las de los registros.
pub fn comprobar(raiz: &Path) -> Vec<String> {
    let (entradas, mut problemas) = match cargar(raiz) {
        Ok(x) => x,
        Err(e) => return vec![e],
    };
    let ids: BTreeSet<&str> = entradas.iter().map(|e| e.id.as_str()).collect();
    // Quién cita cada entrada (la propia página no cuenta).
    let mut citadas: BTreeMap<&str, usize> = BTreeMap::new();
    let mut cita = |archivo: &str, linea: usize, id: &str, problemas: &mut Vec<String>| match ids.get(id) {
        Some(id) => *citadas.entry(id).or_default() += usize::from(archivo != PAGINA),
        None => problemas.push(format!("{archivo}:{linea}: cita «{id}», que no es ninguna entrada de {PAGINA}")),
    };

    let mut paginas: Vec<_> = fs::read_dir(raiz.join("book"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    paginas.sort();
    for pagina in &paginas {
        let nombre = format!("book/{}", pagina.file_name().unwrap().to_string_lossy());
        let texto = fs::read_to_string(pagina).unwrap_or_default();
        for (n, que, porque) in menciones_prohibidas(&texto) {
            problemas.push(format!("{nombre}:{n}: «{que}» {porque}"));
        }
        for (i, linea) in texto.lines().enumerate() {
            for c in CITA.captures_iter(linea) {
                let completo = c.get(0).unwrap().as_str();
                let ancla = &c[1];
                // `#algo` sin `referencias.md` desde otra página es un ancla de esa página.
                if nombre != PAGINA && !completo.contains("referencias.md") {
                    continue;
                }
                match ancla.strip_prefix(PREFIJO) {
                    Some(id) => cita(&nombre, i + 1, id, &mut problemas),
                    None if nombre != PAGINA => problemas.push(format!(
                        "{nombre}:{}: el enlace a referencias.md#{ancla} no lleva a una entrada ({PREFIJO}...)",
                        i + 1
                    )),
                    None => {}
                }
            }
        }
    }

    let mut registros: Vec<_> = fs::read_dir(raiz.join("lessons"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("mediciones.toml"))
        .filter(|p| p.is_file())
        .collect();
    registros.sort();
    for registro in &registros {
        let nombre = registro.strip_prefix(raiz).unwrap_or(registro).display().to_string();
        let texto = fs::read_to_string(registro).unwrap_or_default();
        for (n, que, porque) in menciones_prohibidas(&texto) {
            problemas.push(format!("{nombre}:{n}: «{que}» {porque}"));
        }
        for (i, linea) in texto.lines().enumerate() {
            if let Some(c) = CLAVE_REFERENCIA.captures(linea) {
                let id = c[1].strip_prefix(PREFIJO).unwrap_or(&c[1]).to_string();
                cita(&nombre, i + 1, &id, &mut problemas);
            }
        }
    }

    // El código que el libro incluye, y el resto de lecciones, ejercicios y soluciones.
    let mut pendientes: Vec<_> = ["lessons", "exercises", "solutions"].iter().map(|g| raiz.join(g)).collect();
    let mut codigo = Vec::new();
    while let Some(dir) = pendientes.pop() {
        for entrada in fs::read_dir(&dir).into_iter().flatten().flatten() {
            let ruta = entrada.path();
            if ruta.is_dir() {
                if entrada.file_name() != "target" {
                    pendientes.push(ruta);
                }
            } else if ruta.extension().is_some_and(|x| x == "rs" || x == "md") {
                codigo.push(ruta);
            }
        }
    }
    codigo.sort();
    for archivo in &codigo {
        let nombre = archivo.strip_prefix(raiz).unwrap_or(archivo).display().to_string();
        let texto = fs::read_to_string(archivo).unwrap_or_default();
        for (n, que, porque) in menciones_prohibidas_en_codigo(&texto) {
            problemas.push(format!("{nombre}:{n}: «{que}» {porque}"));
        }
    }

    for e in &entradas {
        if citadas.get(e.id.as_str()).copied().unwrap_or(0) == 0 {
            problemas.push(format!(
                "{PAGINA}:{}: nadie cita la entrada «{}» ({PREFIJO}{}): cítala en un capítulo o un registro, o quítala",
                e.linea, e.titulo, e.id
            ));
        }
    }
    problemas
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn lee_entradas_con_su_ancla_y_sus_enlaces() {
        let (e, p) = leer(
            "# Referencias\n\n## Grupo\n\n### 1. Uno {#ref-uno}\n\nTexto.\n\n- [a](https://a.example/v1)\n\n\
             ### 2. Dos {#ref-dos}\n\n- [b](http://b.example)\n\n### Tres\n",
        );
        assert_eq!(e.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(), ["uno", "dos"]);
        assert_eq!(e[0].titulo, "Uno");
        assert_eq!(e[0].enlaces, ["https://a.example/v1"]);
        assert!(p.iter().any(|x| x.contains("«Dos» enlaza con http://")), "{p:?}");
        assert!(p.iter().any(|x| x.contains("«Dos» no tiene ningún enlace https://")), "{p:?}");
        assert!(p.iter().any(|x| x.contains("«Tres» no tiene ancla")), "{p:?}");
    }

    #[test]
    fn los_enlaces_sin_version_se_ven() {
        for sin in [
            "https://docs.rs/tokio",
            "https://docs.rs/tokio/latest/tokio/",
            "https://docs.rs/crate/loom/latest",
            "https://github.com/tokio-rs/tokio/blob/master/tokio/src/lib.rs#L1",
            "https://github.com/a/b/tree/main/docs",
        ] {
            assert!(sin_version(sin), "{sin}");
        }
        for con in [
            "https://docs.rs/tokio/1.54.1/tokio/task/struct.JoinHandle.html",
            "https://docs.rs/crate/async-std/1.13.1",
            "https://github.com/tokio-rs/tokio/blob/tokio-1.54.1/tokio/src/lib.rs#L1",
            "https://github.com/pmbanugo/tina/blob/10bedd17c9bcd22c9aac2351385394f735dcf6d2/README.md",
            "https://doi.org/10.1145/324133.324234",
        ] {
            assert!(!sin_version(con), "{con}");
        }
    }

    #[test]
    fn las_menciones_prohibidas_se_ven_fuera_del_codigo() {
        let texto = "Según el hecho 7, nada.\n```text\nhecho 7\n```\nLa fuente dice otra cosa.\n\
                     Está en ../shared/reference/facts.md.\nEl código fuente de Tokio está bien.\n";
        let m: Vec<usize> = menciones_prohibidas(texto).into_iter().map(|(n, _, _)| n).collect();
        assert_eq!(m, [1, 5, 6]);
    }
}
