//! Los cuestionarios leídos como prosa del libro, y su revisión.
//!
//! [`prosa`] da el Markdown de un cuestionario (enunciados, textos de las
//! opciones, explicaciones y lo que revela cada pregunta; sin programas, ni
//! salidas, ni errores): la ortografía lo revisa como una página más, y las
//! referencias buscan en el archivo sus citas. [`comprobar`] revisa que cada
//! capítulo tenga su cuestionario y sus directivas, que cada cuestionario
//! esté bien formado, que sus preguntas con número lean un dato medido del
//! registro, y que cada número con unidad de su prosa esté en el registro de
//! su capítulo, como los del capítulo.

use std::collections::BTreeSet;

use super::html::valor_medido;
use super::{CARPETA, Cuestionario, DIRECTIVA, DIRECTIVA_REVELA, Leido, leer, problemas};
use crate::error::{Hallazgo, Tipo};
use crate::mediciones::{registro, unificar_espacios, valores_de_la_prosa};
use crate::modelo::Curso;

/// La prosa de un cuestionario, en Markdown, un párrafo por texto.
pub fn prosa(c: &Cuestionario) -> String {
    let mut textos: Vec<&str> = Vec::new();
    for p in &c.pregunta {
        textos.extend([p.enunciado.as_str(), p.revela.as_str()]);
        textos.extend(p.explicacion.as_deref());
        for o in &p.opcion {
            textos.extend(o.texto.as_deref());
            textos.push(&o.explicacion);
        }
    }
    textos.iter().map(|t| t.trim()).collect::<Vec<_>>().join("\n\n")
}

/// La notas para quien enseña empiezan aquí.
const NOTAS: &str = "<details class=\"instructor\">";

/// Revisa los cuestionarios de todos los capítulos de `curso`.
pub fn comprobar(curso: &Curso) -> Vec<Hallazgo> {
    let mut h = Vec::new();
    let mal = |ruta: &str, mensaje: String| Hallazgo::en_archivo(ruta, None, Tipo::CuestionarioMal, mensaje);
    for c in &curso.capitulos {
        let pagina = format!("book/{}.md", c.nombre);
        let texto = std::fs::read_to_string(curso.ruta(c.pagina())).unwrap_or_default();
        let notas = texto.find(NOTAS);
        match (texto.matches(DIRECTIVA).count(), texto.find(DIRECTIVA), notas) {
            (1, Some(d), Some(n)) if d < n => {}
            (1, Some(_), Some(_)) => {
                h.push(mal(&pagina, format!("{pagina}: {DIRECTIVA} va antes de las notas para quien enseña")))
            }
            (0, _, _) => h.push(mal(&pagina, format!("{pagina}: falta {DIRECTIVA} al final del capítulo"))),
            _ => h.push(mal(&pagina, format!("{pagina}: {DIRECTIVA} debe aparecer una vez, antes de las notas"))),
        }
        if !notas.is_some_and(|n| texto[n..].contains(DIRECTIVA_REVELA)) {
            h.push(mal(&pagina, format!("{pagina}: las notas para quien enseña no tienen {DIRECTIVA_REVELA}")));
        }
        let leido = match leer(&curso.raiz, &c.nombre) {
            Ok(l) => l,
            Err(e) => {
                h.push(mal(
                    &super::ruta(&c.nombre),
                    format!("el capítulo {} no tiene cuestionario legible: {e}", c.nombre),
                ));
                continue;
            }
        };
        h.extend(problemas(&curso.raiz, &leido).into_iter().map(|m| mal(&leido.ruta, format!("{}: {m}", leido.ruta))));
        h.extend(comprobar_con_el_registro(curso, c, &leido));
    }
    // Ningún cuestionario sin capítulo.
    let capitulos: BTreeSet<String> = curso.capitulos.iter().map(|c| format!("{}.toml", c.nombre)).collect();
    for entrada in std::fs::read_dir(curso.ruta(CARPETA)).into_iter().flatten().flatten() {
        let nombre = entrada.file_name().to_string_lossy().into_owned();
        if !capitulos.contains(&nombre) {
            let ruta = format!("{CARPETA}/{nombre}");
            h.push(mal(&ruta, format!("{ruta} no es el cuestionario de ningún capítulo (book/NN-tema.md)")));
        }
    }
    h
}

/// Las preguntas con número leen un dato medido; los números de la prosa están registrados.
fn comprobar_con_el_registro(curso: &Curso, c: &crate::modelo::Capitulo, leido: &Leido) -> Vec<Hallazgo> {
    let mut h = Vec::new();
    let mal = |mensaje: String| Hallazgo::en_archivo(&leido.ruta, None, Tipo::CuestionarioMal, mensaje);
    let registro = match registro::cargar_uno(&curso.raiz, c) {
        Ok(r) => r,
        Err(e) => return vec![mal(format!("{}: no puedo leer el registro del capítulo: {e}", leido.ruta))],
    };
    for p in &leido.cuestionario.pregunta {
        if let Some(m) = &p.medicion
            && let Err(e) = valor_medido(&registro, m)
        {
            h.push(mal(format!("{}, pregunta «{}»: {e}", leido.ruta, p.id)));
        }
    }
    let registrados: BTreeSet<String> =
        registro.datos.iter().flat_map(|d| d.valores.iter()).map(|v| unificar_espacios(v)).collect();
    for (_, valor) in valores_de_la_prosa(&prosa(&leido.cuestionario)) {
        if !registrados.contains(&valor) {
            h.push(mal(format!(
                "{}: «{valor}» no está en {}: cada número con unidad del cuestionario está en el registro del capítulo",
                leido.ruta,
                registro.ruta()
            )));
        }
    }
    h
}
