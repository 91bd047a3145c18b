//! Las variantes de cada capítulo: copias de su crate de soluciones o de
//! ejercicios con algún archivo cambiado, en un espacio de trabajo aparte.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use super::espacio::{UNIFICADOR, escribir_espacio, escribir_unificador};
use crate::error::{Error, Hallazgo, Lugar, Tipo};
use crate::modelo::{Curso, Ejercicio, normalizar};

#[derive(Debug, Clone, PartialEq)]
pub enum Clase {
    Solucion,
    Inicial,
    /// La solución con el archivo del ejercicio `usize` tomado del inicial.
    Mutante(usize),
    /// La solución con una respuesta incorrecta del ejercicio `usize`.
    Incorrecta(usize, String),
    /// El inicial con solo el ejercicio `usize` resuelto (y los que necesita).
    Sola(usize),
}

#[derive(Debug)]
pub struct Variante {
    pub clase: Clase,
    pub dir: PathBuf,
    pub ejecutable: Option<PathBuf>,
    /// El binario de la demo (solo en la variante de la solución).
    pub demo: Option<PathBuf>,
    pub errores: Vec<ErrorDeCompilacion>,
}

#[derive(Debug, Clone)]
pub struct ErrorDeCompilacion {
    pub texto: String,
    pub archivos: Vec<String>,
}

/// Las variantes, por su nombre de paquete.
pub type Variantes = BTreeMap<String, Variante>;

/// El nombre de paquete de una variante: `v06-solucion`, `v06-reparte-inicial`...
pub fn nombre_paquete(e: &Ejercicio, clase: &Clase) -> String {
    let n = e.numero();
    match clase {
        Clase::Solucion => format!("v{n}-solucion"),
        Clase::Inicial => format!("v{n}-inicial"),
        Clase::Mutante(_) => format!("v{n}-{}-inicial", e.nombre),
        Clase::Sola(_) => format!("v{n}-{}-solo", e.nombre),
        Clase::Incorrecta(_, archivo) => {
            let base = Path::new(archivo).file_stem().unwrap_or_default().to_string_lossy();
            format!("v{n}-{}-incorrecta-{base}", e.nombre)
        }
    }
}

/// La variante de clase `clase` del ejercicio `e` (o de su capítulo).
pub fn variante<'a>(variantes: &'a Variantes, e: &Ejercicio, clase: &Clase) -> Option<&'a Variante> {
    variantes.get(&nombre_paquete(e, clase))
}

/// Escribe en `base` el espacio de trabajo con todas las variantes de los
/// ejercicios del curso. Devuelve también las respuestas incorrectas que ya
/// no se aplican sobre su solución (sin variante: no se pueden probar).
pub fn preparar(curso: &Curso, base: &Path) -> Result<(Variantes, Vec<Hallazgo>), Error> {
    // Los archivos se escriben solo si cambian, y lo que sobra de una
    // verificación anterior se borra al final: así cargo no recompila las
    // variantes que no cambiaron.
    let crates = base.join("crates");
    fs::create_dir_all(&crates).map_err(|e| Error::crear(&crates, e))?;
    let mut escritos = BTreeSet::new();
    // El código inicial de cada ejercicio tal como se publicó, aunque hayas
    // trabajado los ejercicios en tu copia.
    let mut inicial = BTreeMap::new();
    for e in &curso.ejercicios {
        inicial.insert(e.nombre.clone(), curso.contenido_inicial(e)?);
    }
    // `ws-06-07` → `0.1.0-ws-06-07`: una versión por espacio de verificación.
    let version = format!("0.1.0-{}", base.file_name().unwrap_or_default().to_string_lossy());
    escribir_unificador(&curso.raiz, &crates.join(UNIFICADOR), &version, &mut escritos)?;
    let mut variantes = Variantes::new();
    let mut anadir = |e: &Ejercicio, clase: Clase, origen: PathBuf, reemplazos: Vec<(&str, Vec<u8>)>| {
        let paquete = nombre_paquete(e, &clase);
        let dir = crates.join(&paquete);
        let reemplazos = reemplazos.into_iter().map(|(archivo, c)| (PathBuf::from(archivo), c)).collect();
        // Solo la variante de la solución necesita su demo: en las demás, sin
        // programas, `cargo build --test` no compila un `main` que nadie ejecuta.
        let con_programas = clase == Clase::Solucion;
        let copia = Copia { origen: &origen, destino: &dir, reemplazos: &reemplazos, con_programas };
        copia.crate_entero(&paquete, &version, &mut escritos)?;
        variantes.insert(paquete, Variante { clase, dir, ejecutable: None, demo: None, errores: Vec::new() });
        Ok::<(), Error>(())
    };
    for capitulo in curso.capitulos_con_ejercicios() {
        let primero = curso.ejercicios_de(capitulo).next().expect("capítulo con ejercicios");
        anadir(primero, Clase::Solucion, curso.ruta(primero.carpeta_solucion()), vec![])?;
        let todos_iniciales =
            curso.ejercicios_de(capitulo).map(|e| (e.archivo.as_str(), inicial[&e.nombre].clone())).collect();
        anadir(primero, Clase::Inicial, curso.ruta(primero.carpeta()), todos_iniciales)?;
    }
    let mut no_se_aplican = Vec::new();
    for (i, e) in curso.ejercicios.iter().enumerate() {
        let solucion = curso.ruta(e.carpeta_solucion());
        anadir(e, Clase::Mutante(i), solucion.clone(), vec![(&e.archivo, inicial[&e.nombre].clone())])?;
        // Resuelto solo: el inicial del capítulo con la solución de este
        // ejercicio y de los que necesita antes (los que requiere y los «haz
        // que compile», sin los que el capítulo no compila).
        let resueltos = curso
            .ejercicios_de(&e.capitulo)
            .filter(|o| o.nombre == e.nombre || o.compilar || e.requiere.contains(&o.nombre))
            .map(|o| o.nombre.as_str())
            .collect::<Vec<_>>();
        let mut archivos = Vec::new();
        for o in curso.ejercicios_de(&e.capitulo) {
            let contenido = if resueltos.contains(&o.nombre.as_str()) {
                let ruta = solucion.join(&o.archivo);
                fs::read(&ruta).map_err(|err| Error::leer(ruta, err))?
            } else {
                inicial[&o.nombre].clone()
            };
            archivos.push((o.archivo.as_str(), contenido));
        }
        anadir(e, Clase::Sola(i), curso.ruta(e.carpeta()), archivos)?;
        let ruta = solucion.join(&e.archivo);
        let original = fs::read_to_string(&ruta).map_err(|err| Error::leer(&ruta, err))?;
        for incorrecta in &e.incorrectas {
            let aplicada = e.leer_incorrecta(&curso.raiz, incorrecta).and_then(|inc| inc.aplicar(&original));
            match aplicada {
                Ok(contenido) => anadir(
                    e,
                    Clase::Incorrecta(i, incorrecta.clone()),
                    solucion.clone(),
                    vec![(&e.archivo, contenido.into_bytes())],
                )?,
                Err(err) => no_se_aplican.push(Hallazgo::con_tipo(
                    Lugar::Ejercicio(e.nombre.clone()),
                    Tipo::IncorrectaNoSeAplica,
                    err.to_string(),
                )),
            }
        }
    }
    // El manifiesto del espacio, con el perfil de cada variante.
    escribir_espacio(&curso.raiz, base, variantes.keys())?;
    borrar_sobrantes(&crates, &escritos).map_err(|e| Error::escribir(&crates, e))?;
    Ok((variantes, no_se_aplican))
}

/// Borra, debajo de `dir`, los archivos que no están en `escritos` y las
/// carpetas que se quedan vacías.
fn borrar_sobrantes(dir: &Path, escritos: &BTreeSet<PathBuf>) -> std::io::Result<()> {
    for entrada in walkdir::WalkDir::new(dir).min_depth(1).contents_first(true) {
        let entrada = entrada?;
        let ruta = entrada.path();
        if entrada.file_type().is_dir() {
            if fs::read_dir(ruta)?.next().is_none() {
                fs::remove_dir(ruta)?;
            }
        } else if !escritos.contains(ruta) {
            fs::remove_file(ruta)?;
        }
    }
    Ok(())
}

/// Escribe solo si el contenido cambia, para no tocar la fecha del archivo.
pub(super) fn escribir(ruta: &Path, bytes: &[u8]) -> Result<(), Error> {
    if fs::read(ruta).is_ok_and(|actual| actual == bytes) {
        return Ok(());
    }
    if let Some(carpeta) = ruta.parent() {
        fs::create_dir_all(carpeta).map_err(|e| Error::crear(carpeta, e))?;
    }
    fs::write(ruta, bytes).map_err(|e| Error::escribir(ruta, e))
}

/// Una copia de un crate, con el contenido de `reemplazos` (por ruta
/// relativa) en lugar del original.
struct Copia<'a> {
    origen: &'a Path,
    destino: &'a Path,
    reemplazos: &'a BTreeMap<PathBuf, Vec<u8>>,
    /// Con sus programas (`src/main.rs`, `src/bin/`); sin ellos, solo la
    /// biblioteca y las pruebas.
    con_programas: bool,
}

impl Copia<'_> {
    /// Copia el crate (sin `target/`) y ajusta su `Cargo.toml`: otro nombre de
    /// paquete, una versión propia de este espacio de trabajo y rutas absolutas
    /// para lo que queda fuera del crate.
    ///
    /// La versión importa: cargo distingue los artefactos de un paquete local
    /// por su nombre, su versión y su ruta *relativa* a la raíz del espacio de
    /// trabajo. Dos espacios de verificación (un capítulo, todos) tienen las
    /// mismas rutas relativas y comparten `target/`; sin otra versión, uno
    /// usaría lo que compiló el otro.
    fn crate_entero(&self, paquete: &str, version: &str, escritos: &mut BTreeSet<PathBuf>) -> Result<(), Error> {
        self.archivos(escritos)?;
        escritos.insert(self.destino.join("Cargo.toml"));
        let ruta = self.origen.join("Cargo.toml");
        let texto = fs::read_to_string(&ruta).map_err(|e| Error::leer(&ruta, e))?;
        let mut m: toml::Table = toml::from_str(&texto).map_err(|e| Error::formato(&ruta, e))?;
        if let Some(p) = m.get_mut("package").and_then(|p| p.as_table_mut()) {
            p.insert("name".into(), paquete.into());
            p.insert("version".into(), version.into());
            if !self.con_programas {
                p.insert("autobins".into(), false.into());
                p.remove("default-run");
            }
        }
        if !self.con_programas {
            m.remove("bin");
        }
        for (clave, valor) in m.iter_mut() {
            match clave.as_str() {
                "lib" => self.ruta_absoluta(valor),
                "bin" | "test" | "example" | "bench" => {
                    valor.as_array_mut().into_iter().flatten().for_each(|v| self.ruta_absoluta(v))
                }
                "dependencies" | "dev-dependencies" | "build-dependencies" => {
                    valor.as_table_mut().into_iter().flatten().for_each(|(_, v)| self.ruta_absoluta(v))
                }
                _ => {}
            }
        }
        escribir(&self.destino.join("Cargo.toml"), toml::to_string(&m).expect("TOML válido").as_bytes())
    }

    /// Un `path = "..."` que sale del crate pasa a ser absoluto.
    fn ruta_absoluta(&self, v: &mut toml::Value) {
        if let Some(t) = v.as_table_mut()
            && let Some(toml::Value::String(ruta)) = t.get("path")
        {
            let absoluta = normalizar(&self.origen.join(ruta));
            if !absoluta.starts_with(self.origen) {
                t.insert("path".into(), absoluta.to_string_lossy().into_owned().into());
            }
        }
    }

    /// Copia los archivos (sin `target/`) y anota en `escritos` cada uno.
    fn archivos(&self, escritos: &mut BTreeSet<PathBuf>) -> Result<(), Error> {
        let recorrido = walkdir::WalkDir::new(self.origen).min_depth(1).into_iter();
        let sobra = |rel: &Path| {
            rel.starts_with("target")
                || rel.starts_with(crate::modelo::incorrectas::CARPETA)
                || (!self.con_programas && (rel == Path::new("src/main.rs") || rel.starts_with("src/bin")))
        };
        for entrada in recorrido.filter_entry(|e| !sobra(e.path().strip_prefix(self.origen).unwrap_or(e.path()))) {
            let entrada =
                entrada.map_err(|e| Error::mensaje(format!("no puedo leer {}: {e}", self.origen.display())))?;
            if entrada.file_type().is_dir() {
                continue;
            }
            let rel = entrada.path().strip_prefix(self.origen).expect("dentro del origen").to_path_buf();
            let mut contenido = match self.reemplazos.get(&rel) {
                Some(c) => c.clone(),
                None => fs::read(entrada.path()).map_err(|e| Error::leer(entrada.path(), e))?,
            };
            if rel.extension().is_some_and(|x| x == "rs") {
                contenido = rutas_de_modulo_absolutas(self.origen, entrada.path(), contenido);
            }
            escribir(&self.destino.join(&rel), &contenido)?;
            escritos.insert(self.destino.join(&rel));
        }
        Ok(())
    }
}

/// Un módulo puede vivir fuera de su crate (`#[path = "../../../solutions/09-.../src/robo.rs"]`:
/// el andamiaje del capítulo 09 está una sola vez, en la solución). En la
/// copia, esa ruta relativa ya no llevaría a ningún sitio: se cambia por la
/// absoluta. Las rutas que quedan dentro del crate no se tocan (se copian con
/// él), ni las que solo se nombran en un comentario: el atributo empieza la
/// línea. Como en `lib.rs`, `main.rs` o `mod.rs`, la ruta es relativa a la
/// carpeta del archivo.
fn rutas_de_modulo_absolutas(raiz_crate: &Path, archivo: &Path, contenido: Vec<u8>) -> Vec<u8> {
    let Ok(texto) = std::str::from_utf8(&contenido) else { return contenido };
    if !texto.contains("#[path") {
        return contenido;
    }
    let atributo = regex::Regex::new(r#"(?m)^(\s*)#\[path\s*=\s*"([^"]+)"\s*\]"#).expect("expresión válida");
    let carpeta = archivo.parent().unwrap_or(raiz_crate);
    atributo
        .replace_all(texto, |c: &regex::Captures| {
            let destino = normalizar(&carpeta.join(&c[2]));
            if destino.starts_with(raiz_crate) {
                c[0].to_string()
            } else {
                format!("{}#[path = {:?}]", &c[1], destino.to_string_lossy())
            }
        })
        .into_owned()
        .into_bytes()
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn un_modulo_de_fuera_del_crate_pasa_a_ruta_absoluta_y_los_de_dentro_no_cambian() {
        let raiz = Path::new("/curso/exercises/09-x");
        let lib = raiz.join("src/lib.rs");
        let texto =
            "#[path = \"../../../solutions/09-x/src/robo.rs\"]\npub mod robo;\n#[path = \"otro.rs\"]\nmod otro;\n";
        let copia = String::from_utf8(rutas_de_modulo_absolutas(raiz, &lib, texto.as_bytes().to_vec())).unwrap();
        assert_eq!(
            copia,
            "#[path = \"/curso/solutions/09-x/src/robo.rs\"]\npub mod robo;\n#[path = \"otro.rs\"]\nmod otro;\n"
        );
        // En un comentario, el atributo solo se nombra: no se toca.
        let comentario = "//! usa `#[path = \"../../../solutions/09-x/src/robo.rs\"]`\n";
        let copia = rutas_de_modulo_absolutas(raiz, &lib, comentario.as_bytes().to_vec());
        assert_eq!(String::from_utf8(copia).unwrap(), comentario);
    }
}
