//! Los enlaces de los capítulos a archivos del espacio de trabajo
//! (`../lessons/06-hilos-verdes/src/main.rs`) pasan a ser enlaces al
//! repositorio, que funcionan también en el sitio publicado.
//!
//! Los enlaces se buscan con pulldown-cmark, como los lee mdbook: lo que
//! parece un enlace dentro de un bloque de código o de código en línea no se
//! toca.

use std::ops::Range;
use std::path::Path;

use pulldown_cmark::{Event, Options, Parser, Tag};

use crate::modelo::normalizar;

/// Adónde llevan los enlaces a archivos del espacio de trabajo: la URL del
/// repositorio y la rama publicada.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repositorio {
    /// `https://github.com/dueño/nombre`, sin `/` al final.
    pub url: String,
    /// La rama de los enlaces `blob/RAMA/...`.
    pub rama: String,
}

/// El destino nuevo de un enlace `destino` de una página de `carpeta`, si
/// sale del libro hacia un archivo del espacio de trabajo.
fn al_repositorio(destino: &str, carpeta: &Path, raiz: &Path, repositorio: &Repositorio) -> Option<String> {
    let (ruta, fragmento) = destino.split_once('#').map_or((destino, ""), |(r, f)| (r, f));
    if !ruta.starts_with("../") {
        return None;
    }
    let absoluta = normalizar(&carpeta.join(ruta));
    if absoluta.starts_with(carpeta) || absoluta.starts_with(raiz.join("book")) {
        return None;
    }
    let relativa = absoluta.strip_prefix(raiz).ok()?;
    let tipo = if absoluta.is_dir() { "tree" } else { "blob" };
    let mut nuevo = format!("{}/{tipo}/{}/{}", repositorio.url, repositorio.rama, relativa.display());
    if ruta.ends_with('/') {
        nuevo.push('/');
    }
    if !fragmento.is_empty() {
        nuevo.push('#');
        nuevo.push_str(fragmento);
    }
    Some(nuevo)
}

/// Dónde está escrito el destino de un enlace en el texto: lo último
/// `](destino` dentro del enlace.
fn posicion_del_destino(texto: &str, enlace: Range<usize>, destino: &str) -> Option<Range<usize>> {
    let inicio = enlace.start + texto[enlace].rfind(&format!("]({destino}"))? + 2;
    Some(inicio..inicio + destino.len())
}

/// Reescribe los destinos de los enlaces (y las imágenes) de `texto`, una
/// página de `carpeta`, que salen de la carpeta del libro hacia un archivo
/// del espacio de trabajo de `raiz`: pasan a `URL/blob/RAMA/...` (o
/// `tree/` para una carpeta).
pub fn reescribir_enlaces(texto: &str, carpeta: &Path, raiz: &Path, repositorio: &Repositorio) -> String {
    let opciones = Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_STRIKETHROUGH;
    let mut cambios: Vec<(Range<usize>, String)> = Vec::new();
    for (evento, rango) in Parser::new_ext(texto, opciones).into_offset_iter() {
        let (Event::Start(Tag::Link { dest_url, .. }) | Event::Start(Tag::Image { dest_url, .. })) = evento else {
            continue;
        };
        let nuevo = al_repositorio(&dest_url, carpeta, raiz, repositorio);
        if let (Some(nuevo), Some(donde)) = (nuevo, posicion_del_destino(texto, rango, &dest_url)) {
            cambios.push((donde, nuevo));
        }
    }
    cambios.sort_by_key(|(r, _)| r.start);
    cambios.dedup_by_key(|(r, _)| r.start);
    let mut salida = String::with_capacity(texto.len());
    let mut hasta = 0;
    for (rango, nuevo) in cambios {
        salida.push_str(&texto[hasta..rango.start]);
        salida.push_str(&nuevo);
        hasta = rango.end;
    }
    salida.push_str(&texto[hasta..]);
    salida
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn el_codigo_no_se_toca() {
        let raiz = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let texto = "[a](../curso/Cargo.toml)\n\n```text\n[b](../curso/Cargo.toml)\n```\n\n`[c](../curso/Cargo.toml)`\n\
                     ![d](../curso/Cargo.toml)\n";
        let repositorio = Repositorio { url: "https://r".into(), rama: "main".into() };
        let nuevo = reescribir_enlaces(texto, &raiz.join("book"), raiz, &repositorio);
        assert_eq!(
            nuevo,
            "[a](https://r/blob/main/curso/Cargo.toml)\n\n```text\n[b](../curso/Cargo.toml)\n```\n\n\
             `[c](../curso/Cargo.toml)`\n![d](https://r/blob/main/curso/Cargo.toml)\n"
        );
    }
}
