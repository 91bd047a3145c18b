//! La ortografía del libro (y de sus cuestionarios), con hunspell y su diccionario español (paquetes
//! de Debian `hunspell` y `hunspell-es`), más la lista de palabras del curso
//! en `curso/diccionario.txt`.
//!
//! Se revisa con los diccionarios español e inglés a la vez: el curso da el
//! término inglés entre paréntesis y cita mensajes del compilador. La lista
//! del curso tiene tres secciones: `[términos]`, palabras que no son
//! españolas y que el curso usa a propósito (*runtime*, *crate*...), que
//! deben estar explicadas en el glosario; `[nombres]`, nombres propios, de
//! herramientas y siglas; y `[español]`, palabras españolas correctas que el
//! diccionario no trae (formas con pronombre, como «arréglalo»).

use std::collections::BTreeSet;
use std::path::Path;

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use crate::error::{Error, Hallazgo, Tipo};
use crate::procesos::Proceso;

/// El archivo con las palabras del curso, relativo a la raíz.
pub const DICCIONARIO: &str = "curso/diccionario.txt";

/// Las palabras del curso: (términos, nombres).
pub fn palabras_del_curso(raiz: &Path) -> Result<(BTreeSet<String>, BTreeSet<String>), Error> {
    let ruta = raiz.join(DICCIONARIO);
    let texto = std::fs::read_to_string(&ruta).map_err(|e| Error::leer(ruta, e))?;
    let (mut terminos, mut nombres) = (BTreeSet::new(), BTreeSet::new());
    let mut seccion = "";
    for linea in texto.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        match linea {
            "[términos]" | "[nombres]" | "[español]" => seccion = linea,
            palabra if seccion == "[términos]" => {
                terminos.insert(palabra.to_string());
            }
            palabra if seccion == "[nombres]" || seccion == "[español]" => {
                nombres.insert(palabra.to_string());
            }
            otra => return Err(Error::formato(DICCIONARIO, format!("«{otra}» está fuera de una sección"))),
        }
    }
    Ok((terminos, nombres))
}

/// El texto en prosa de una página: sin bloques de código, código en línea,
/// HTML ni direcciones.
pub fn prosa(markdown: &str) -> String {
    let mut salida = String::new();
    let mut en_codigo = 0;
    // Con los atributos de encabezado, como mdbook: el ancla de
    // `### Título {#ref-x}` no es prosa.
    let opciones = pulldown_cmark::Options::ENABLE_TABLES | pulldown_cmark::Options::ENABLE_HEADING_ATTRIBUTES;
    for evento in Parser::new_ext(markdown, opciones) {
        match evento {
            Event::Start(Tag::CodeBlock(_)) => en_codigo += 1,
            Event::End(TagEnd::CodeBlock) => en_codigo -= 1,
            // Las directivas de mdbook ({{#include ...}}) no son prosa.
            Event::Text(t) if en_codigo == 0 && !t.trim_start().starts_with("{{#") => salida.push_str(&t),
            Event::Text(_) => {}
            Event::SoftBreak | Event::HardBreak | Event::End(_) => salida.push('\n'),
            Event::Code(_) => salida.push(' '),
            _ => {}
        }
    }
    salida
}

/// Las palabras de `texto` que hunspell no reconoce en español ni están en
/// la lista del curso.
pub fn desconocidas(texto: &str, curso: &BTreeSet<String>) -> Result<BTreeSet<String>, Error> {
    // Español, y también inglés: los términos en inglés entre paréntesis
    // (*work stealing*) y las citas de mensajes del compilador.
    // `-i utf-8`: sin un locale UTF-8 (LANG vacío, como con `su -`),
    // hunspell partiría las palabras en cada letra con tilde.
    let hunspell = Proceso::hunspell().args(["-d", "es_ES,en_US", "-i", "utf-8", "-l"]);
    let orden = hunspell.describir();
    let salida = hunspell.salida_con_entrada(texto.as_bytes())?;
    if !salida.exito() {
        return Err(Error::Fallo { orden, detalle: salida.stderr().trim().to_string() });
    }
    Ok(salida
        .stdout()
        .lines()
        .map(str::to_string)
        .filter(|p| !curso.contains(p) && !curso.contains(&p.to_lowercase()))
        // Cifras con unidades (10ms, 2MiB) y siglas con números no son palabras.
        .filter(|p| !p.chars().any(|c| c.is_ascii_digit()) && p.chars().count() > 1)
        .collect())
}

/// Revisa la ortografía de todas las páginas del libro y que cada término
/// del curso esté en el glosario. Devuelve lo encontrado: una página con sus
/// palabras desconocidas, o un término sin glosario.
pub fn comprobar(raiz: &Path) -> Result<Vec<Hallazgo>, Error> {
    let (terminos, nombres) = palabras_del_curso(raiz)?;
    let curso: BTreeSet<String> = terminos.union(&nombres).cloned().collect();
    let mut problemas = Vec::new();
    let carpeta = raiz.join("book");
    let entradas = std::fs::read_dir(&carpeta).map_err(|e| Error::leer(&carpeta, e))?;
    let mut paginas: Vec<_> =
        entradas.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "md")).collect();
    paginas.sort();
    for pagina in &paginas {
        let texto = std::fs::read_to_string(pagina).map_err(|e| Error::leer(pagina, e))?;
        let malas = desconocidas(&prosa(&texto), &curso)?;
        if !malas.is_empty() {
            let nombre = format!("book/{}", pagina.file_name().unwrap_or_default().to_string_lossy());
            let mensaje = format!("{nombre}: {}", malas.into_iter().collect::<Vec<_>>().join(", "));
            problemas.push(Hallazgo::en_archivo(nombre, None, Tipo::Ortografia, mensaje));
        }
    }
    // Los cuestionarios, como una página más: su prosa es la del libro.
    let carpeta = raiz.join(crate::libro::cuestionarios::CARPETA);
    let mut cuestionarios: Vec<_> =
        std::fs::read_dir(&carpeta).into_iter().flatten().flatten().map(|e| e.path()).collect();
    cuestionarios.sort();
    for archivo in cuestionarios.iter().filter(|p| p.extension().is_some_and(|x| x == "toml")) {
        let capitulo = archivo.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        let leido = crate::libro::cuestionarios::leer(raiz, &capitulo)?;
        let malas = desconocidas(&prosa(&crate::libro::cuestionarios::prosa::prosa(&leido.cuestionario)), &curso)?;
        if !malas.is_empty() {
            let mensaje = format!("{}: {}", leido.ruta, malas.into_iter().collect::<Vec<_>>().join(", "));
            problemas.push(Hallazgo::en_archivo(&leido.ruta, None, Tipo::Ortografia, mensaje));
        }
    }
    let glosario = std::fs::read_to_string(raiz.join("book/glosario.md")).unwrap_or_default().to_lowercase();
    for t in terminos.iter().filter(|t| !glosario.contains(&t.to_lowercase())) {
        let mensaje = format!("«{t}» está en [términos] de {DICCIONARIO} pero no en el glosario");
        problemas.push(Hallazgo::en_archivo(DICCIONARIO, None, Tipo::TerminoSinGlosario, mensaje));
    }
    Ok(problemas)
}
