//! Quién cita cada entrada de la página de referencias: las páginas del
//! libro, los registros de mediciones y el código de las lecciones, los
//! ejercicios y las soluciones.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;
use walkdir::WalkDir;

use super::discusion::discusiones_sin_cita;
use super::prohibidas::{Mencion, menciones_prohibidas, menciones_prohibidas_en_codigo};
use super::{PAGINA, PREFIJO, Referencia, cargar};
use crate::error::{Hallazgo, Tipo};

/// Un enlace a una entrada: `referencias.md#ref-x` desde otra página, o `#ref-x` desde la misma.
static CITA: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\]\((?:referencias\.md)?#([^)\s]*)\)").unwrap());
static CLAVE_REFERENCIA: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#"^\s*referencia\s*=\s*"([^"]*)""#).unwrap());

/// Las citas encontradas hasta ahora y los problemas.
struct Citas<'a> {
    ids: BTreeSet<&'a str>,
    /// Cuántas veces se cita cada entrada (la propia página no cuenta).
    citadas: BTreeMap<&'a str, usize>,
    hallazgos: Vec<Hallazgo>,
}

impl<'a> Citas<'a> {
    fn cita(&mut self, archivo: &str, linea: usize, id: &str) {
        match self.ids.get(id) {
            Some(id) => *self.citadas.entry(id).or_default() += usize::from(archivo != PAGINA),
            None => self.problema(
                archivo,
                linea,
                Tipo::CitaRota,
                format!("cita «{id}», que no es ninguna entrada de {PAGINA}"),
            ),
        }
    }

    fn problema(&mut self, archivo: &str, linea: usize, tipo: Tipo, mensaje: String) {
        self.hallazgos.push(Hallazgo::en_archivo(archivo, Some(linea), tipo, format!("{archivo}:{linea}: {mensaje}")));
    }

    fn menciones(&mut self, archivo: &str, menciones: Vec<Mencion>) {
        for m in menciones {
            self.problema(archivo, m.linea, m.tipo, format!("«{}» {}", m.texto, m.porque));
        }
    }

    /// Las citas de una página del libro (`book/x.md`).
    fn pagina(&mut self, nombre: &str, texto: &str) {
        self.menciones(nombre, menciones_prohibidas(texto));
        self.menciones(nombre, discusiones_sin_cita(texto));
        for (i, linea) in texto.lines().enumerate() {
            for c in CITA.captures_iter(linea) {
                let completo = c.get(0).map_or("", |m| m.as_str());
                let ancla = &c[1];
                // `#algo` sin `referencias.md` desde otra página es un ancla de esa página.
                if nombre != PAGINA && !completo.contains("referencias.md") {
                    continue;
                }
                match ancla.strip_prefix(PREFIJO) {
                    Some(id) => self.cita(nombre, i + 1, id),
                    None if nombre != PAGINA => self.problema(
                        nombre,
                        i + 1,
                        Tipo::CitaRota,
                        format!("el enlace a referencias.md#{ancla} no lleva a una entrada ({PREFIJO}...)"),
                    ),
                    None => {}
                }
            }
        }
    }

    /// Las citas de un registro de mediciones (`referencia = "x"`).
    fn registro(&mut self, nombre: &str, texto: &str) {
        self.menciones(nombre, menciones_prohibidas(texto));
        for (i, linea) in texto.lines().enumerate() {
            if let Some(c) = CLAVE_REFERENCIA.captures(linea) {
                let id = c[1].strip_prefix(PREFIJO).unwrap_or(&c[1]).to_string();
                self.cita(nombre, i + 1, &id);
            }
        }
    }
}

/// Los archivos de una carpeta (sin entrar en `target/`) que cumplen `filtro`, en orden.
fn archivos(carpeta: &Path, filtro: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = WalkDir::new(carpeta)
        .into_iter()
        .filter_entry(|e| !(e.file_type().is_dir() && e.file_name() == "target"))
        .flatten()
        .filter(|e| e.file_type().is_file() && filtro(e.path()))
        .map(|e| e.into_path())
        .collect();
    v.sort();
    v
}

fn extension(ruta: &Path, extensiones: &[&str]) -> bool {
    ruta.extension().and_then(|x| x.to_str()).is_some_and(|x| extensiones.contains(&x))
}

/// Revisa la página de referencias, las citas del libro y las de los
/// registros, y que nada nombre textos que quien lee no tiene.
pub fn comprobar(raiz: &Path) -> Vec<Hallazgo> {
    let (entradas, problemas): (Vec<Referencia>, _) = match cargar(raiz) {
        Ok(x) => x,
        Err(e) => return vec![Hallazgo::en_archivo(PAGINA, None, Tipo::Ilegible, e.to_string())],
    };
    let ids = entradas.iter().map(|e| e.id.as_str()).collect();
    let mut citas = Citas { ids, citadas: BTreeMap::new(), hallazgos: problemas };
    let relativa = |ruta: &Path| ruta.strip_prefix(raiz).unwrap_or(ruta).display().to_string();
    let leer = |ruta: &Path| fs::read_to_string(ruta).unwrap_or_default();

    let paginas = fs::read_dir(raiz.join("book")).into_iter().flatten().flatten().map(|e| e.path());
    let mut paginas: Vec<PathBuf> = paginas.filter(|p| extension(p, &["md"])).collect();
    paginas.sort();
    for pagina in &paginas {
        citas.pagina(&relativa(pagina), &leer(pagina));
    }
    // Los cuestionarios (book/cuestionarios/*.toml) citan como una página más.
    for cuestionario in archivos(&raiz.join("book/cuestionarios"), |p| extension(p, &["toml"])) {
        citas.pagina(&relativa(&cuestionario), &leer(&cuestionario));
    }
    let registros = fs::read_dir(raiz.join("lessons")).into_iter().flatten().flatten();
    let mut registros: Vec<PathBuf> =
        registros.map(|e| e.path().join("mediciones.toml")).filter(|p| p.is_file()).collect();
    registros.sort();
    for registro in &registros {
        citas.registro(&relativa(registro), &leer(registro));
    }
    // El código que el libro incluye, y el resto de lecciones, ejercicios y soluciones.
    for grupo in ["exercises", "lessons", "solutions", "cuestionarios"] {
        for archivo in archivos(&raiz.join(grupo), |p| extension(p, &["rs", "md"])) {
            citas.menciones(&relativa(&archivo), menciones_prohibidas_en_codigo(&leer(&archivo)));
        }
    }
    for e in &entradas {
        if citas.citadas.get(e.id.as_str()).copied().unwrap_or(0) == 0 {
            let mensaje = format!(
                "nadie cita la entrada «{}» ({PREFIJO}{}): cítala en un capítulo o un registro, o quítala",
                e.titulo, e.id
            );
            citas.problema(PAGINA, e.linea, Tipo::EntradaSinCitar, mensaje);
        }
    }
    citas.hallazgos
}
