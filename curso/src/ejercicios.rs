//! La lista de ejercicios: `exercises/ejercicios.toml`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// El archivo con la lista, relativo a la raíz.
pub const LISTA: &str = "exercises/ejercicios.toml";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Archivo {
    ejercicio: Vec<Ejercicio>,
}

/// Un ejercicio, tal como lo describe la lista.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ejercicio {
    pub nombre: String,
    pub capitulo: String,
    pub titulo: String,
    pub archivo: String,
    #[serde(default)]
    pub compilar: bool,
    pub pruebas: Vec<String>,
    pub pistas: Vec<String>,
    #[serde(default)]
    pub incorrectas: Vec<String>,
}

impl Ejercicio {
    /// Los dos dígitos del capítulo: `"06"`.
    pub fn numero(&self) -> &str {
        self.capitulo.get(..2).unwrap_or("")
    }
    /// El paquete del ejercicio: `ejercicios-06`.
    pub fn paquete(&self) -> String {
        format!("ejercicios-{}", self.numero())
    }
    /// El paquete de la solución: `soluciones-06`.
    pub fn paquete_solucion(&self) -> String {
        format!("soluciones-{}", self.numero())
    }
    /// La carpeta del ejercicio, relativa a la raíz.
    pub fn carpeta(&self) -> PathBuf {
        Path::new("exercises").join(&self.capitulo)
    }
    /// La carpeta de la solución, relativa a la raíz.
    pub fn carpeta_solucion(&self) -> PathBuf {
        Path::new("solutions").join(&self.capitulo)
    }
}

/// Lee la lista. El error es una frase en español.
pub fn cargar(raiz: &Path) -> Result<Vec<Ejercicio>, String> {
    let ruta = raiz.join(LISTA);
    let texto = std::fs::read_to_string(&ruta).map_err(|e| format!("no puedo leer {LISTA}: {e}"))?;
    let archivo: Archivo = toml::from_str(&texto).map_err(|e| format!("{LISTA} no es válido: {e}"))?;
    let mut lista = archivo.ejercicio;
    // El orden de la lista dentro de un capítulo es el orden de trabajo.
    lista.sort_by(|a, b| a.capitulo.cmp(&b.capitulo));
    Ok(lista)
}

/// Todo lo que está mal en la lista, sin compilar nada: nombres repetidos,
/// carpetas o archivos que no existen, ejercicios sin pista o sin pruebas.
pub fn validar(raiz: &Path, lista: &[Ejercicio]) -> Vec<String> {
    let mut problemas = Vec::new();
    let mut nombres = BTreeSet::new();
    let mut pruebas = BTreeSet::new();
    for e in lista {
        let n = &e.nombre;
        if !nombres.insert(n.as_str()) {
            problemas.push(format!("el nombre «{n}» está repetido en {LISTA}"));
        }
        if !n.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') || n.is_empty() {
            problemas.push(format!("«{n}»: usa solo minúsculas sin tilde, cifras y guiones"));
        }
        if !e.capitulo.get(..3).is_some_and(|p| p.as_bytes()[..2].iter().all(u8::is_ascii_digit) && p.ends_with('-')) {
            problemas.push(format!("«{n}»: el capítulo «{}» debe empezar por NN-", e.capitulo));
        }
        for carpeta in [e.carpeta(), e.carpeta_solucion(), Path::new("lessons").join(&e.capitulo)] {
            if !raiz.join(&carpeta).join("Cargo.toml").is_file() {
                problemas.push(format!("«{n}»: no existe el crate {}", carpeta.display()));
            }
        }
        for carpeta in [e.carpeta(), e.carpeta_solucion()] {
            if !raiz.join(&carpeta).join(&e.archivo).is_file() {
                problemas.push(format!("«{n}»: no existe {}", carpeta.join(&e.archivo).display()));
            }
        }
        for incorrecta in &e.incorrectas {
            if !raiz.join(e.carpeta_solucion()).join(incorrecta).is_file() {
                problemas.push(format!("«{n}»: no existe la respuesta incorrecta {incorrecta}"));
            }
        }
        if e.titulo.trim().is_empty() {
            problemas.push(format!("«{n}» no tiene título"));
        }
        if e.pistas.is_empty() || e.pistas.len() > 2 || e.pistas.iter().any(|p| p.trim().is_empty()) {
            problemas.push(format!("«{n}» debe tener una o dos pistas, no vacías"));
        }
        if e.pruebas.is_empty() {
            problemas.push(format!("«{n}» no tiene pruebas"));
        }
        for p in &e.pruebas {
            if !pruebas.insert((e.capitulo.as_str(), p.as_str())) {
                problemas.push(format!("la prueba «{p}» está en más de un ejercicio"));
            }
        }
    }
    problemas.extend(andamiaje_distinto(raiz, lista));
    problemas
}

/// El andamiaje de un capítulo (lo que hay en `src/` de su ejercicio que no
/// es un archivo de ejercicio ni `lib.rs`, como el ejecutor del 09) vive en
/// dos copias, `exercises/` y `solutions/`, porque la verificación copia cada
/// crate entero. Las dos copias tienen que ser idénticas: si no, quien
/// aprende trabajaría sobre un código distinto del que prueba la solución.
fn andamiaje_distinto(raiz: &Path, lista: &[Ejercicio]) -> Vec<String> {
    fn rs(dir: &Path, base: &Path, v: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let ruta = e.path();
            if ruta.is_dir() {
                rs(&ruta, base, v);
            } else if ruta.extension().is_some_and(|x| x == "rs") {
                v.extend(ruta.strip_prefix(base).ok().map(Path::to_path_buf));
            }
        }
    }
    let mut problemas = Vec::new();
    for capitulo in capitulos(lista) {
        let Some(primero) = lista.iter().find(|e| e.capitulo == capitulo) else { continue };
        let (ej, sol) = (raiz.join(primero.carpeta()), raiz.join(primero.carpeta_solucion()));
        let mut archivos = Vec::new();
        rs(&ej.join("src"), &ej, &mut archivos);
        for archivo in archivos {
            let propio = lista.iter().any(|e| e.capitulo == capitulo && Path::new(&e.archivo) == archivo);
            if propio || archivo == Path::new("src/lib.rs") || archivo == Path::new("src/main.rs") {
                continue;
            }
            let (a, b) = (std::fs::read(ej.join(&archivo)), std::fs::read(sol.join(&archivo)));
            if let (Ok(a), Ok(b)) = (a, b)
                && a != b
            {
                problemas.push(format!(
                    "{}: exercises/ y solutions/ tienen copias distintas de este archivo, que no es de ningún \
                     ejercicio; deben ser idénticas",
                    primero.carpeta().join(&archivo).display()
                ));
            }
        }
    }
    problemas
}

/// Las carpetas de `exercises/` que no tienen ningún ejercicio en la lista.
pub fn carpetas_sin_ejercicios(raiz: &Path, lista: &[Ejercicio]) -> Vec<String> {
    let mut problemas = Vec::new();
    if let Ok(entradas) = std::fs::read_dir(raiz.join("exercises")) {
        for entrada in entradas.flatten().filter(|e| e.path().join("Cargo.toml").is_file()) {
            let capitulo = entrada.file_name().to_string_lossy().into_owned();
            if !lista.iter().any(|e| e.capitulo == capitulo) {
                problemas.push(format!("exercises/{capitulo} no tiene ningún ejercicio en {LISTA}"));
            }
        }
    }
    problemas
}

/// Los capítulos con ejercicios, en orden y sin repetir.
pub fn capitulos(lista: &[Ejercicio]) -> Vec<&str> {
    let mut vistos: Vec<&str> = Vec::new();
    for e in lista {
        if !vistos.contains(&e.capitulo.as_str()) {
            vistos.push(&e.capitulo);
        }
    }
    vistos
}
