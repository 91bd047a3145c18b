//! Los cuestionarios del libro: uno por capítulo, en
//! `book/cuestionarios/NN-tema.toml`, la única fuente de sus preguntas.
//!
//! - El libro los muestra al final de cada capítulo con la directiva
//!   `{{#cuestionario}}`, y la lista de qué idea equivocada revela cada
//!   pregunta, en las notas para quien enseña, con
//!   `{{#cuestionario-revela}}` (las dos las sustituye
//!   [`super::DirectivasDelCurso`]): [`html`].
//! - La prueba de `cuestionarios/` lee el mismo archivo y ejecuta el
//!   programa de cada pregunta «¿qué imprime?», «¿compila?» o «¿termina?»
//!   para comprobar que la respuesta fijada es la de verdad.
//! - La ortografía, las referencias y el registro de mediciones leen su
//!   prosa como la de un capítulo: [`prosa`].
//!
//! Cada pregunta tiene un `tipo`:
//!
//! - `eleccion`: opciones con `texto`, una correcta (o varias, con
//!   `varias = true`);
//! - `imprime`, `compila`, `termina`: un `programa` (de
//!   `cuestionarios/programas/` o un caso de `no-compila/tests/ui/`) y
//!   opciones que afirman algo comprobable de él (`salida`, `compila`,
//!   `error`, `termina`, `panico`, `varia`);
//! - `numero`: una `medicion` del registro del capítulo, por el principio de
//!   su `que`, con un `margen` en tanto por ciento; la respuesta sale del
//!   registro, nunca se copia.
//!
//! Cada opción lleva su `explicacion`, y cada pregunta, lo que `revela`.

pub mod html;
pub mod prosa;

use std::ops::RangeInclusive;
use std::path::Path;

use serde::Deserialize;

use crate::error::Error;

/// La carpeta de los cuestionarios, desde la raíz.
pub const CARPETA: &str = "book/cuestionarios";
/// La directiva que pone el cuestionario del capítulo.
pub const DIRECTIVA: &str = "{{#cuestionario}}";
/// La directiva que pone, en las notas para quien enseña, qué revela cada pregunta.
pub const DIRECTIVA_REVELA: &str = "{{#cuestionario-revela}}";
/// Cuántas preguntas tiene cada cuestionario.
pub const PREGUNTAS: RangeInclusive<usize> = 4..=8;
/// Los programas que compilan, desde la raíz.
pub const PROGRAMAS: &str = "cuestionarios/programas/";
/// Los programas que no deben compilar, desde la raíz.
pub const NO_COMPILAN: &str = "no-compila/tests/ui/";

/// Un cuestionario, tal como se escribe.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cuestionario {
    pub pregunta: Vec<Pregunta>,
}

/// La clase de una pregunta.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Clase {
    Eleccion,
    Imprime,
    Compila,
    Termina,
    Numero,
}

impl Clase {
    /// Lo que dice la pregunta de sí misma, junto a su número.
    pub fn etiqueta(self, varias: bool) -> &'static str {
        match self {
            Clase::Eleccion if varias => "Marca todas las que sean ciertas",
            Clase::Eleccion => "Elige una respuesta",
            Clase::Imprime if varias => "¿Qué puede imprimir? Marca todas las posibles",
            Clase::Imprime => "¿Qué imprime?",
            Clase::Compila => "¿Compila?",
            Clase::Termina => "¿Termina?",
            Clase::Numero => "Responde con un número",
        }
    }

    /// ¿Lleva un programa?
    pub fn con_programa(self) -> bool {
        matches!(self, Clase::Imprime | Clase::Compila | Clase::Termina)
    }
}

/// Una pregunta.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pregunta {
    /// Su nombre, único en el cuestionario (`join-no-lanza`): lo usa el
    /// progreso que guarda el navegador.
    pub id: String,
    pub tipo: Clase,
    /// En Markdown.
    pub enunciado: String,
    /// La idea equivocada que revela quien la falla (para quien enseña).
    pub revela: String,
    /// Más de una opción correcta (casillas en lugar de botones de opción).
    #[serde(default)]
    pub varias: bool,
    /// El programa de la pregunta, desde la raíz.
    pub programa: Option<String>,
    /// El dato del registro de las preguntas `numero`.
    pub medicion: Option<Medicion>,
    /// La explicación de una pregunta `numero`.
    pub explicacion: Option<String>,
    #[serde(default)]
    pub opcion: Vec<Opcion>,
}

/// Un dato del registro de mediciones del capítulo.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Medicion {
    /// El principio del `que` del dato (uno solo del registro debe empezar así).
    pub que: String,
    /// Cuál de sus `valores` (el primero, por defecto).
    #[serde(default)]
    pub indice: usize,
    /// Cuánto puede alejarse la respuesta, en tanto por ciento del valor.
    pub margen: u32,
}

/// Una opción.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Opcion {
    /// En Markdown, en una línea.
    pub texto: Option<String>,
    #[serde(default)]
    pub correcta: bool,
    /// Por qué es correcta, o qué idea equivocada lleva a elegirla, con un
    /// enlace a la sección que lo enseña.
    pub explicacion: String,
    /// El programa termina e imprime exactamente esto (una de sus salidas posibles).
    pub salida: Option<String>,
    pub compila: Option<bool>,
    /// No compila, con un error cuya primera línea contiene esto.
    pub error: Option<String>,
    pub termina: Option<bool>,
    pub panico: Option<bool>,
    /// Lo que imprime cambia (o no) de una ejecución a otra.
    pub varia: Option<bool>,
}

impl Opcion {
    /// ¿Afirma algo comprobable del programa?
    pub fn afirma_algo(&self) -> bool {
        self.salida.is_some()
            || self.compila.is_some()
            || self.error.is_some()
            || self.termina.is_some()
            || self.panico.is_some()
            || self.varia.is_some()
    }
}

/// Un cuestionario leído, con su texto (para la versión que guarda el navegador).
#[derive(Debug, Clone)]
pub struct Leido {
    /// `06-hilos-verdes`.
    pub capitulo: String,
    /// `book/cuestionarios/06-hilos-verdes.toml`.
    pub ruta: String,
    pub texto: String,
    pub cuestionario: Cuestionario,
}

impl Leido {
    /// Un resumen del archivo: si cambia, el navegador olvida las respuestas guardadas.
    pub fn version(&self) -> String {
        sha1_smol::Sha1::from(self.texto.as_bytes()).digest().to_string()[..10].to_string()
    }
}

/// La ruta del cuestionario de un capítulo, desde la raíz.
pub fn ruta(capitulo: &str) -> String {
    format!("{CARPETA}/{capitulo}.toml")
}

/// Lee el cuestionario de un capítulo.
pub fn leer(raiz: &Path, capitulo: &str) -> Result<Leido, Error> {
    let ruta = ruta(capitulo);
    let texto = std::fs::read_to_string(raiz.join(&ruta)).map_err(|e| Error::leer(raiz.join(&ruta), e))?;
    let cuestionario = toml::from_str(&texto).map_err(|e| Error::formato(&ruta, e))?;
    Ok(Leido { capitulo: capitulo.to_string(), ruta, texto, cuestionario })
}

/// Los problemas de forma de un cuestionario (sin mirar el registro ni
/// ejecutar nada): cuántas preguntas, nombres, textos y explicaciones,
/// programas que existen, opciones que afirman algo comprobable.
pub fn problemas(raiz: &Path, leido: &Leido) -> Vec<String> {
    let mut v = Vec::new();
    let preguntas = &leido.cuestionario.pregunta;
    if !PREGUNTAS.contains(&preguntas.len()) {
        v.push(format!(
            "tiene {} preguntas; un cuestionario tiene de {} a {}",
            preguntas.len(),
            PREGUNTAS.start(),
            PREGUNTAS.end()
        ));
    }
    let mut vistos = std::collections::BTreeSet::new();
    for p in preguntas {
        let valido = !p.id.is_empty() && p.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !valido {
            v.push(format!("el id «{}» debe tener solo minúsculas sin tilde, cifras y guiones", p.id));
        }
        if !vistos.insert(p.id.as_str()) {
            v.push(format!("el id «{}» está repetido", p.id));
        }
        v.extend(problemas_de_la_pregunta(raiz, p).into_iter().map(|m| format!("pregunta «{}»: {m}", p.id)));
    }
    v
}

fn problemas_de_la_pregunta(raiz: &Path, p: &Pregunta) -> Vec<String> {
    let mut v = Vec::new();
    let vacio = |s: &str| s.trim().is_empty();
    if vacio(&p.enunciado) {
        v.push("le falta el enunciado".to_string());
    }
    if vacio(&p.revela) {
        v.push("le falta «revela»: qué idea equivocada descubre quien la falla".to_string());
    }
    if p.tipo == Clase::Numero {
        if p.medicion.is_none() || p.explicacion.as_deref().is_none_or(vacio) || !p.opcion.is_empty() {
            v.push("una pregunta «numero» lleva «medicion» y «explicacion», y ninguna opción".to_string());
        }
        return v;
    }
    if p.medicion.is_some() || p.explicacion.is_some() {
        v.push("«medicion» y «explicacion» son solo de las preguntas «numero»".to_string());
    }
    match (&p.programa, p.tipo.con_programa()) {
        (Some(programa), true) => v.extend(problema_del_programa(raiz, programa)),
        (None, true) => v.push("le falta el programa".to_string()),
        (Some(_), false) => v.push("solo las preguntas imprime, compila y termina llevan programa".to_string()),
        (None, false) => {}
    }
    if p.opcion.len() < 2 {
        v.push("necesita al menos dos opciones".to_string());
    }
    let correctas = p.opcion.iter().filter(|o| o.correcta).count();
    if correctas == 0 {
        v.push("ninguna opción es correcta".to_string());
    }
    if correctas > 1 && !p.varias {
        v.push(format!("tiene {correctas} opciones correctas: pon «varias = true»"));
    }
    if p.tipo == Clase::Imprime && !p.opcion.iter().any(|o| o.salida.is_some()) {
        v.push("una pregunta «imprime» tiene opciones con «salida»".to_string());
    }
    for (i, o) in p.opcion.iter().enumerate() {
        let n = i + 1;
        if vacio(&o.explicacion) {
            v.push(format!("la opción {n} no tiene explicación"));
        }
        if o.texto.as_deref().is_none_or(vacio) && o.salida.is_none() {
            v.push(format!("la opción {n} no tiene texto"));
        }
        if o.texto.as_deref().is_some_and(|t| t.contains('\n')) {
            v.push(format!("el texto de la opción {n} debe caber en una línea"));
        }
        match (p.tipo.con_programa(), o.afirma_algo()) {
            (true, false) => v.push(format!(
                "la opción {n} no afirma nada comprobable del programa (salida, compila, error, termina, panico o varia)"
            )),
            (false, true) => v.push(format!("la opción {n} afirma algo de un programa, y la pregunta no tiene")),
            _ => {}
        }
    }
    v
}

/// El programa existe: un `.rs` de los cuestionarios, o un caso de
/// `no-compila` con su `.stderr`.
fn problema_del_programa(raiz: &Path, programa: &str) -> Option<String> {
    let ruta = raiz.join(programa);
    let en_su_sitio =
        programa.ends_with(".rs") && (programa.starts_with(PROGRAMAS) || programa.starts_with(NO_COMPILAN));
    if !en_su_sitio {
        return Some(format!("el programa «{programa}» debe estar en {PROGRAMAS}NN-tema/ o en {NO_COMPILAN}NN-tema/"));
    }
    if !ruta.is_file() {
        return Some(format!("el programa «{programa}» no existe"));
    }
    if programa.starts_with(NO_COMPILAN) && !ruta.with_extension("stderr").is_file() {
        return Some(format!("«{programa}» no tiene su error fijado (.stderr)"));
    }
    None
}

/// El cuestionario de un capítulo en HTML, con el registro de su capítulo.
pub fn html_del_capitulo(
    curso: &crate::modelo::Curso,
    capitulo: &str,
    maquinas: &std::collections::BTreeMap<String, crate::mediciones::Maquina>,
) -> Result<String, Error> {
    let leido = leer(&curso.raiz, capitulo)?;
    let c = curso.capitulo(capitulo).ok_or_else(|| Error::mensaje(format!("{capitulo} no es un capítulo")))?;
    let registro = crate::mediciones::registro::cargar_uno(&curso.raiz, c)?;
    html::html(&leido, &html::Contexto { raiz: &curso.raiz, registro: &registro, maquinas })
}

/// La lista para quien enseña: qué idea equivocada revela cada pregunta, en Markdown.
pub fn revela(leido: &Leido) -> String {
    let mut texto = String::from("**Qué idea equivocada revela cada pregunta del cuestionario:**\n\n");
    for (i, p) in leido.cuestionario.pregunta.iter().enumerate() {
        let clase = match p.tipo {
            Clase::Eleccion if p.varias => "Varias ciertas.",
            Clase::Eleccion => "Elección.",
            Clase::Imprime => "¿Qué imprime?",
            Clase::Compila => "¿Compila?",
            Clase::Termina => "¿Termina?",
            Clase::Numero => "Un número.",
        };
        texto.push_str(&format!("{}. **{clase}** {}\n", i + 1, p.revela.trim().replace('\n', " ")));
    }
    texto
}

#[cfg(test)]
mod pruebas {
    use super::*;

    fn leido(texto: &str) -> Leido {
        let cuestionario = toml::from_str(texto).expect("TOML válido");
        Leido {
            capitulo: "01-x".into(),
            ruta: "book/cuestionarios/01-x.toml".into(),
            texto: texto.into(),
            cuestionario,
        }
    }

    #[test]
    fn los_problemas_de_forma_se_ven() {
        let l = leido(
            r#"
[[pregunta]]
id = "Una"
tipo = "eleccion"
enunciado = "¿Sí?"
revela = ""
[[pregunta.opcion]]
texto = "sí"
correcta = true
explicacion = "Porque sí."
[[pregunta.opcion]]
texto = "también"
correcta = true
explicacion = ""
salida = "hola"
"#,
        );
        let p = problemas(Path::new("."), &l);
        let todo = p.join("\n");
        for esperado in [
            "tiene 1 preguntas",
            "el id «Una»",
            "le falta «revela»",
            "pon «varias = true»",
            "la opción 2 no tiene explicación",
            "la opción 2 afirma algo de un programa",
        ] {
            assert!(todo.contains(esperado), "falta «{esperado}» en:\n{todo}");
        }
    }

    #[test]
    fn la_lista_para_quien_ensena_sale_de_revela() {
        let l = leido(
            "[[pregunta]]\nid = \"a\"\ntipo = \"eleccion\"\nenunciado = \"x\"\nrevela = \"Creer que `join!` crea tareas.\"\n",
        );
        assert!(revela(&l).contains("1. **Elección.** Creer que `join!` crea tareas."));
    }
}
