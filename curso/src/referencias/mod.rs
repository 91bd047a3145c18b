//! Las referencias del libro: la página `book/referencias.md` y quién la cita.
//!
//! Cada entrada de la página es un encabezado con un ancla fija,
//! `### 7. Título {#ref-tokio-memoria-tarea}`, seguido de lo que el curso saca
//! de ella y de al menos un enlace `https://` fijado a una versión. Los
//! capítulos la citan con un enlace a `referencias.md#ref-...`, y los
//! registros de mediciones con `referencia = "tokio-memoria-tarea"`.
//!
//! [`comprobar`] ([`citas`]) falla cuando:
//!
//! - un párrafo del libro responde a «la crítica» o traduce entre comillas
//!   una frase de un original inglés sin citar en ese párrafo ninguna
//!   entrada ([`discusion`]): el texto con el que se discute se nombra;
//! - una página del libro o un registro nombra un archivo de fuera del
//!   repositorio o un texto que quien lee no tiene («hecho 7», `facts.md`,
//!   «la fuente», «el texto del que parte»...); en el código de `lessons/`,
//!   `exercises/` y `solutions/` (que el libro incluye), lo mismo salvo «la
//!   fuente», que en un comentario puede ser el código fuente
//!   ([`prohibidas`]);
//! - una cita usa un identificador que la página no tiene;
//! - una entrada no la cita nadie;
//! - una entrada no tiene ningún enlace `https://` (o tiene uno `http://`,
//!   o uno a docs.rs, a GitHub, a man7.org o a docs.kernel.org que no está
//!   fijado a una versión), o su
//!   encabezado no trae un ancla `{#ref-...}` ([`leer`]).

pub mod citas;
pub mod discusion;
pub mod prohibidas;

use std::fs;
use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;

pub use citas::comprobar;
pub use discusion::discusiones_sin_cita;
pub use prohibidas::{Mencion, menciones_prohibidas, menciones_prohibidas_en_codigo};

use crate::error::{Error, Hallazgo, Tipo};

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

/// Las entradas de la página de referencias de `raiz`, y los problemas de
/// forma de la propia página (anclas que faltan o se repiten, enlaces sin https).
pub fn cargar(raiz: &Path) -> Result<(Vec<Referencia>, Vec<Hallazgo>), Error> {
    let ruta = raiz.join(PAGINA);
    let texto = fs::read_to_string(&ruta).map_err(|e| Error::leer(ruta, e))?;
    Ok(leer(&texto))
}

/// Un problema de forma de la página, en su línea.
fn mal_formada(linea: usize, mensaje: String) -> Hallazgo {
    Hallazgo::en_archivo(PAGINA, Some(linea), Tipo::EntradaMalFormada, format!("{PAGINA}:{linea}: {mensaje}"))
}

/// La entrada que abre el encabezado `contenido` (de nivel 3) en la línea
/// `n`, o el problema de su ancla.
fn entrada(n: usize, contenido: &str, entradas: &[Referencia]) -> Result<Referencia, Hallazgo> {
    let Some(a) = ANCLA.captures(contenido) else {
        return Err(mal_formada(n, format!("la entrada «{contenido}» no tiene ancla {{#{PREFIJO}...}}")));
    };
    let ancla = &a[1];
    let Some(id) = ancla.strip_prefix(PREFIJO).filter(|id| ID_VALIDO.is_match(id)) else {
        let mensaje = format!("el ancla «{ancla}» debe ser {PREFIJO} seguido de minúsculas, cifras y guiones");
        return Err(mal_formada(n, mensaje));
    };
    if entradas.iter().any(|e| e.id == id) {
        return Err(mal_formada(n, format!("el ancla «{ancla}» está repetida")));
    }
    let titulo = ANCLA.replace(contenido, "");
    let titulo = NUMERO_INICIAL.replace(titulo.trim(), "").to_string();
    Ok(Referencia { id: id.to_string(), titulo, linea: n, enlaces: Vec::new() })
}

/// Los enlaces de una línea de la entrada `e`, con sus problemas.
fn enlaces(n: usize, linea: &str, e: &mut Referencia, problemas: &mut Vec<Hallazgo>) {
    for c in ENLACE.captures_iter(linea) {
        let destino = c.get(1).or(c.get(2)).map_or("", |m| m.as_str());
        if sin_version(destino) {
            let mensaje = format!(
                "la entrada «{}» enlaza con {destino}, que no está fijado a una versión \
                 (usa docs.rs/CRATE/VERSIÓN/..., o una etiqueta o un commit en GitHub)",
                e.titulo
            );
            problemas.push(mal_formada(n, mensaje));
        }
        if destino.starts_with("http://") {
            problemas.push(mal_formada(n, format!("la entrada «{}» enlaza con http://; usa https://", e.titulo)));
        }
        e.enlaces.push(destino.to_string());
    }
}

/// Lee la página: sus entradas y sus problemas de forma.
pub fn leer(texto: &str) -> (Vec<Referencia>, Vec<Hallazgo>) {
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
            // Solo los de nivel 3 son entradas; los ## agrupan.
            en_entrada = false;
            if linea.chars().take_while(|&c| c == '#').count() == 3 {
                match entrada(n, &c[1], &entradas) {
                    Ok(e) => {
                        entradas.push(e);
                        en_entrada = true;
                    }
                    Err(h) => problemas.push(h),
                }
            }
            continue;
        }
        if en_entrada && let Some(e) = entradas.last_mut() {
            enlaces(n, linea, e, &mut problemas);
        }
    }
    for e in entradas.iter().filter(|e| !e.enlaces.iter().any(|d| d.starts_with("https://"))) {
        let mensaje = format!("la entrada «{}» no tiene ningún enlace https:// que quien lee pueda seguir", e.titulo);
        problemas.push(mal_formada(e.linea, mensaje));
    }
    (entradas, problemas)
}

/// Si un enlace no está fijado a una versión: docs.rs sin versión (o con
/// `latest`), GitHub en una rama que se mueve, o las páginas de manual y la
/// documentación de Linux que siempre muestran la última (man7.org,
/// docs.kernel.org, `kernel.org/doc/html/latest`).
fn sin_version(destino: &str) -> bool {
    let siempre_la_ultima =
        ["https://man7.org/", "https://docs.kernel.org/", "https://www.kernel.org/doc/html/latest/"];
    if siempre_la_ultima.iter().any(|p| destino.starts_with(p)) {
        return true;
    }
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
        let en = |linea| {
            let lugar = crate::error::Lugar::Archivo { ruta: PAGINA.into(), linea: Some(linea) };
            p.iter().filter(move |h| h.lugar == lugar)
        };
        assert!(en(13).any(|x| x.mensaje.contains("«Dos» enlaza con http://")), "{p:?}");
        assert!(en(11).any(|x| x.mensaje.contains("«Dos» no tiene ningún enlace https://")), "{p:?}");
        assert!(en(15).any(|x| x.mensaje.contains("«Tres» no tiene ancla")), "{p:?}");
        assert!(p.iter().all(|h| h.tipo == Tipo::EntradaMalFormada));
    }

    #[test]
    fn los_enlaces_sin_version_se_ven() {
        for sin in [
            "https://docs.rs/tokio",
            "https://docs.rs/tokio/latest/tokio/",
            "https://docs.rs/crate/loom/latest",
            "https://github.com/tokio-rs/tokio/blob/master/tokio/src/lib.rs#L1",
            "https://github.com/a/b/tree/main/docs",
            "https://man7.org/linux/man-pages/man7/socket.7.html",
            "https://docs.kernel.org/admin-guide/sysctl/kernel.html#io-uring-disabled",
            "https://www.kernel.org/doc/html/latest/admin-guide/sysctl/vm.html",
        ] {
            assert!(sin_version(sin), "{sin}");
        }
        for con in [
            "https://docs.rs/tokio/1.54.1/tokio/task/struct.JoinHandle.html",
            "https://docs.rs/crate/async-std/1.13.1",
            "https://github.com/tokio-rs/tokio/blob/tokio-1.54.1/tokio/src/lib.rs#L1",
            "https://github.com/pmbanugo/tina/blob/10bedd17c9bcd22c9aac2351385394f735dcf6d2/README.md",
            "https://doi.org/10.1145/324133.324234",
            "https://github.com/mkerrisk/man-pages/blob/man-pages-5.13/man7/socket.7#L863-L895",
            "https://www.kernel.org/doc/html/v6.12/admin-guide/sysctl/kernel.html#io-uring-disabled",
        ] {
            assert!(!sin_version(con), "{con}");
        }
    }
}
