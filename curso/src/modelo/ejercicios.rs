//! La lista de ejercicios: `exercises/ejercicios.toml`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::capitulos::{Grupo, Numero};
use crate::error::{Error, Hallazgo, Lugar, Tipo};

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
    /// El número del capítulo (la validación de la lista exige `NN-tema`).
    pub fn numero(&self) -> Numero {
        Numero::de_nombre(&self.capitulo).unwrap_or(Numero(0))
    }
    /// El paquete de su crate en `grupo`: `ejercicios-06`, `soluciones-06`.
    pub fn paquete_de(&self, grupo: Grupo) -> String {
        grupo.paquete(self.numero())
    }
    /// El paquete del ejercicio: `ejercicios-06`.
    pub fn paquete(&self) -> String {
        self.paquete_de(Grupo::Ejercicios)
    }
    /// El paquete de la solución: `soluciones-06`.
    pub fn paquete_solucion(&self) -> String {
        self.paquete_de(Grupo::Soluciones)
    }
    /// La carpeta del ejercicio, relativa a la raíz.
    pub fn carpeta(&self) -> PathBuf {
        Path::new(Grupo::Ejercicios.carpeta()).join(&self.capitulo)
    }
    /// La carpeta de la solución, relativa a la raíz.
    pub fn carpeta_solucion(&self) -> PathBuf {
        Path::new(Grupo::Soluciones.carpeta()).join(&self.capitulo)
    }
    /// El archivo que editas, relativo a la raíz.
    pub fn ruta(&self) -> PathBuf {
        self.carpeta().join(&self.archivo)
    }
}

/// Lee la lista, en orden de trabajo.
pub fn leer(raiz: &Path) -> Result<Vec<Ejercicio>, Error> {
    let texto = std::fs::read_to_string(raiz.join(LISTA)).map_err(|e| Error::leer(LISTA, e))?;
    let archivo: Archivo = toml::from_str(&texto).map_err(|e| Error::formato(LISTA, e))?;
    let mut lista = archivo.ejercicio;
    // El orden de la lista dentro de un capítulo es el orden de trabajo.
    lista.sort_by(|a, b| a.capitulo.cmp(&b.capitulo));
    Ok(lista)
}

/// Todo lo que está mal en la lista, sin compilar nada: nombres repetidos,
/// carpetas o archivos que no existen, ejercicios sin pista o sin pruebas.
pub fn validar(raiz: &Path, lista: &[Ejercicio]) -> Vec<Hallazgo> {
    let mut problemas = Vec::new();
    let mut nombres = BTreeSet::new();
    let mut pruebas = BTreeSet::new();
    for e in lista {
        let n = &e.nombre;
        let mut problema =
            |tipo, texto: String| problemas.push(Hallazgo::con_tipo(Lugar::Ejercicio(n.clone()), tipo, texto));
        if !nombres.insert(n.as_str()) {
            problema(Tipo::NombreInvalido, format!("el nombre «{n}» está repetido en {LISTA}"));
        }
        if !n.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') || n.is_empty() {
            problema(Tipo::NombreInvalido, format!("«{n}»: usa solo minúsculas sin tilde, cifras y guiones"));
        }
        if Numero::de_nombre(&e.capitulo).is_none() {
            problema(Tipo::CapituloInvalido, format!("«{n}»: el capítulo «{}» debe empezar por NN-", e.capitulo));
        }
        for carpeta in [e.carpeta(), e.carpeta_solucion(), Path::new("lessons").join(&e.capitulo)] {
            if !raiz.join(&carpeta).join("Cargo.toml").is_file() {
                problema(Tipo::EjercicioSinArchivo, format!("«{n}»: no existe el crate {}", carpeta.display()));
            }
        }
        for carpeta in [e.carpeta(), e.carpeta_solucion()] {
            if !raiz.join(&carpeta).join(&e.archivo).is_file() {
                problema(Tipo::EjercicioSinArchivo, format!("«{n}»: no existe {}", carpeta.join(&e.archivo).display()));
            }
        }
        for incorrecta in &e.incorrectas {
            if !raiz.join(e.carpeta_solucion()).join(incorrecta).is_file() {
                problema(Tipo::EjercicioSinArchivo, format!("«{n}»: no existe la respuesta incorrecta {incorrecta}"));
            }
        }
        if e.titulo.trim().is_empty() {
            problema(Tipo::EjercicioIncompleto, format!("«{n}» no tiene título"));
        }
        if e.pistas.is_empty() || e.pistas.len() > 2 || e.pistas.iter().any(|p| p.trim().is_empty()) {
            problema(Tipo::EjercicioIncompleto, format!("«{n}» debe tener una o dos pistas, no vacías"));
        }
        if e.pruebas.is_empty() {
            problema(Tipo::EjercicioIncompleto, format!("«{n}» no tiene pruebas"));
        }
        for p in &e.pruebas {
            if !pruebas.insert((e.capitulo.as_str(), p.as_str())) {
                problema(Tipo::PruebaRepetida, format!("la prueba «{p}» está en más de un ejercicio"));
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
fn andamiaje_distinto(raiz: &Path, lista: &[Ejercicio]) -> Vec<Hallazgo> {
    let mut problemas = Vec::new();
    for capitulo in capitulos(lista) {
        let Some(primero) = lista.iter().find(|e| e.capitulo == capitulo) else { continue };
        let (ej, sol) = (raiz.join(primero.carpeta()), raiz.join(primero.carpeta_solucion()));
        let archivos = walkdir::WalkDir::new(ej.join("src"))
            .into_iter()
            .flatten()
            .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "rs"))
            .filter_map(|e| e.path().strip_prefix(&ej).ok().map(Path::to_path_buf));
        for archivo in archivos {
            let propio = lista.iter().any(|e| e.capitulo == capitulo && Path::new(&e.archivo) == archivo);
            if propio || archivo == Path::new("src/lib.rs") || archivo == Path::new("src/main.rs") {
                continue;
            }
            let (a, b) = (std::fs::read(ej.join(&archivo)), std::fs::read(sol.join(&archivo)));
            if let (Ok(a), Ok(b)) = (a, b)
                && a != b
            {
                let ruta = primero.carpeta().join(&archivo);
                let texto = format!(
                    "{}: exercises/ y solutions/ tienen copias distintas de este archivo, que no es de ningún \
                     ejercicio; deben ser idénticas",
                    ruta.display()
                );
                problemas.push(Hallazgo::en_archivo(ruta, None, Tipo::AndamiajeDistinto, texto));
            }
        }
    }
    problemas
}

/// Las carpetas de `exercises/` que no tienen ningún ejercicio en la lista.
pub fn carpetas_sin_ejercicios(raiz: &Path, lista: &[Ejercicio]) -> Vec<Hallazgo> {
    let mut problemas = Vec::new();
    if let Ok(entradas) = std::fs::read_dir(raiz.join(Grupo::Ejercicios.carpeta())) {
        for entrada in entradas.flatten().filter(|e| e.path().join("Cargo.toml").is_file()) {
            let capitulo = entrada.file_name().to_string_lossy().into_owned();
            if !lista.iter().any(|e| e.capitulo == capitulo) {
                let texto = format!("exercises/{capitulo} no tiene ningún ejercicio en {LISTA}");
                problemas.push(Hallazgo::con_tipo(Lugar::Capitulo(capitulo), Tipo::CarpetaSinEjercicios, texto));
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

#[cfg(test)]
mod pruebas {
    use super::*;
    use crate::error::Tipo;

    fn ejercicio(nombre: &str, capitulo: &str, prueba: &str) -> Ejercicio {
        Ejercicio {
            nombre: nombre.into(),
            capitulo: capitulo.into(),
            titulo: "Un ejercicio".into(),
            archivo: "src/a.rs".into(),
            compilar: false,
            pruebas: vec![prueba.into()],
            pistas: vec!["Una pista".into()],
            incorrectas: vec![],
        }
    }

    #[test]
    fn cada_problema_de_la_lista_dice_su_clase_y_su_ejercicio() {
        let raiz = std::env::temp_dir().join(format!("curso-lista-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&raiz);
        for carpeta in ["exercises/06-x", "solutions/06-x", "lessons/06-x", "exercises/07-sin-lista"] {
            std::fs::create_dir_all(raiz.join(carpeta).join("src")).unwrap();
            std::fs::write(raiz.join(carpeta).join("Cargo.toml"), "").unwrap();
            std::fs::write(raiz.join(carpeta).join("src/a.rs"), "").unwrap();
        }
        let bien = ejercicio("a", "06-x", "a::uno");
        assert_eq!(validar(&raiz, std::slice::from_ref(&bien)), vec![]);
        let mut sin_pistas = ejercicio("b", "06-x", "a::uno");
        sin_pistas.pistas.clear();
        let lista = [bien.clone(), bien, sin_pistas, ejercicio("C", "6-x", "c::uno")];
        let clases: BTreeSet<(Lugar, Tipo)> = validar(&raiz, &lista).into_iter().map(|h| (h.lugar, h.tipo)).collect();
        let de = |n: &str, t| (Lugar::Ejercicio(n.into()), t);
        let esperadas = [
            de("a", Tipo::NombreInvalido),
            de("a", Tipo::PruebaRepetida),
            de("b", Tipo::EjercicioIncompleto),
            de("b", Tipo::PruebaRepetida),
            de("C", Tipo::NombreInvalido),
            de("C", Tipo::CapituloInvalido),
            de("C", Tipo::EjercicioSinArchivo),
        ];
        assert_eq!(clases, esperadas.into_iter().collect(), "{clases:#?}");
        let sobra = carpetas_sin_ejercicios(&raiz, &lista);
        assert_eq!(sobra.len(), 1);
        assert_eq!(
            (&sobra[0].lugar, sobra[0].tipo),
            (&Lugar::Capitulo("07-sin-lista".into()), Tipo::CarpetaSinEjercicios)
        );
        let _ = std::fs::remove_dir_all(&raiz);
    }
}
