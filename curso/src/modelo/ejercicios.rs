//! Las listas de ejercicios: `exercises/NN-tema/ejercicios.toml`, una por
//! capítulo, con las propiedades que prueba cada ejercicio; y sus
//! respuestas incorrectas conocidas ([`super::incorrectas`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::capitulos::{Grupo, Numero};
use super::incorrectas::{self, Incorrecta};
use crate::error::{Error, Hallazgo, Lugar, Tipo};

/// El nombre de la lista de cada capítulo, dentro de `exercises/NN-tema/`.
pub const LISTA: &str = "ejercicios.toml";

/// La lista de un capítulo, relativa a la raíz.
pub fn lista_de(capitulo: &str) -> PathBuf {
    Path::new(Grupo::Ejercicios.carpeta()).join(capitulo).join(LISTA)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Archivo {
    #[serde(default)]
    ejercicio: Vec<Ejercicio>,
}

/// Un ejercicio, tal como lo describe la lista de su capítulo.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ejercicio {
    pub nombre: String,
    /// La carpeta del capítulo (`06-hilos-verdes`): la de su lista.
    #[serde(skip)]
    pub capitulo: String,
    pub titulo: String,
    pub archivo: String,
    #[serde(default)]
    pub compilar: bool,
    pub pruebas: Vec<String>,
    pub pistas: Vec<String>,
    /// Otros ejercicios del capítulo que este usa: hay que resolverlos antes.
    #[serde(default)]
    pub requiere: Vec<String>,
    /// Lo que el ejercicio enseña, como propiedades que sus pruebas comprueban.
    #[serde(default, rename = "propiedad")]
    pub propiedades: Vec<Propiedad>,
    /// Las respuestas incorrectas conocidas, rutas relativas a la carpeta de
    /// la solución (`incorrectas/NOMBRE/CASO.patch`), en orden.
    #[serde(skip)]
    pub incorrectas: Vec<String>,
}

/// Una propiedad que el ejercicio enseña y que sus pruebas comprueban: al
/// menos una respuesta incorrecta conocida la rompe, y entonces falla al
/// menos una de sus pruebas.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Propiedad {
    /// Corto y único en el ejercicio (`duerme`, `primer-fallo`).
    pub id: String,
    /// Lo que se cumple, en una frase.
    pub texto: String,
    /// Las pruebas que la comprueban.
    pub pruebas: Vec<String>,
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
    /// La carpeta de sus respuestas incorrectas, relativa a la de la solución.
    pub fn carpeta_incorrectas(&self) -> PathBuf {
        Path::new(incorrectas::CARPETA).join(&self.nombre)
    }
    /// Una propiedad por su id.
    pub fn propiedad(&self, id: &str) -> Option<&Propiedad> {
        self.propiedades.iter().find(|p| p.id == id)
    }
    /// Lee una de sus respuestas incorrectas (una de [`Ejercicio::incorrectas`]).
    pub fn leer_incorrecta(&self, raiz: &Path, incorrecta: &str) -> Result<Incorrecta, Error> {
        Incorrecta::leer(&raiz.join(self.carpeta_solucion()).join(incorrecta))
    }
}

/// Lee las listas de todos los capítulos, en orden de trabajo: por capítulo
/// y, dentro de cada uno, en el orden de su lista.
pub fn leer(raiz: &Path) -> Result<Vec<Ejercicio>, Error> {
    let carpeta = raiz.join(Grupo::Ejercicios.carpeta());
    let mut capitulos: Vec<String> = std::fs::read_dir(&carpeta)
        .map_err(|e| Error::leer(&carpeta, e))?
        .flatten()
        .filter(|e| e.path().join(LISTA).is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    capitulos.sort();
    let mut lista = Vec::new();
    for capitulo in capitulos {
        let ruta = lista_de(&capitulo);
        let texto = std::fs::read_to_string(raiz.join(&ruta)).map_err(|e| Error::leer(&ruta, e))?;
        let archivo: Archivo = toml::from_str(&texto).map_err(|e| Error::formato(&ruta, e))?;
        for mut e in archivo.ejercicio {
            e.capitulo = capitulo.clone();
            e.incorrectas = incorrectas::listar(&raiz.join(e.carpeta_solucion()), &e.nombre)?;
            lista.push(e);
        }
    }
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
        for requerido in &e.requiere {
            if !lista.iter().any(|o| o.nombre == *requerido && o.capitulo == e.capitulo && o.nombre != *n) {
                problema(
                    Tipo::EjercicioIncompleto,
                    format!("«{n}» requiere «{requerido}», que no es otro ejercicio de su capítulo"),
                );
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
    for e in lista {
        problemas.extend(propiedades_mal(raiz, e));
    }
    problemas.extend(andamiaje_distinto(raiz, lista));
    problemas
}

/// Lo que está mal en las propiedades de un ejercicio y en las respuestas
/// incorrectas que las rompen: ids repetidos, pruebas que no son del
/// ejercicio o que ninguna propiedad reclama, una respuesta sin explicación o
/// que rompe una propiedad que no existe, una propiedad que ninguna
/// respuesta conocida rompe (así nada demuestra que sus pruebas pueden fallar).
fn propiedades_mal(raiz: &Path, e: &Ejercicio) -> Vec<Hallazgo> {
    let n = &e.nombre;
    let mut problemas = Vec::new();
    let mut problema =
        |tipo, texto: String| problemas.push(Hallazgo::con_tipo(Lugar::Ejercicio(n.clone()), tipo, texto));
    let mut ids = BTreeSet::new();
    for p in &e.propiedades {
        if !ids.insert(p.id.as_str())
            || p.id.is_empty()
            || !p.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            problema(
                Tipo::PropiedadMal,
                format!("«{n}»: la propiedad «{}» está repetida o su id no es de minúsculas, cifras y guiones", p.id),
            );
        }
        if p.texto.trim().is_empty() || p.pruebas.is_empty() {
            problema(
                Tipo::PropiedadMal,
                format!("«{n}»: la propiedad «{}» necesita un texto y al menos una prueba", p.id),
            );
        }
        for prueba in p.pruebas.iter().filter(|x| !e.pruebas.contains(x)) {
            problema(
                Tipo::PropiedadMal,
                format!("«{n}»: la propiedad «{}» nombra «{prueba}», que no está en sus pruebas", p.id),
            );
        }
    }
    if !e.propiedades.is_empty() {
        for prueba in e.pruebas.iter().filter(|x| !e.propiedades.iter().any(|p| p.pruebas.contains(x))) {
            problema(
                Tipo::PropiedadMal,
                format!("«{n}»: la prueba «{prueba}» no comprueba ninguna de sus propiedades"),
            );
        }
    }
    let mut rotas = BTreeSet::new();
    for ruta in &e.incorrectas {
        match e.leer_incorrecta(raiz, ruta) {
            Err(err) => problema(Tipo::IncorrectaMal, err.to_string()),
            Ok(inc) => match inc.rompe.as_deref() {
                Some(id) if e.propiedad(id).is_some() => {
                    rotas.insert(id.to_string());
                }
                Some(id) if !e.propiedades.is_empty() => problema(
                    Tipo::IncorrectaMal,
                    format!("«{n}»: {ruta} dice «Rompe: {id}», y «{n}» no tiene esa propiedad"),
                ),
                _ if !e.propiedades.is_empty() => problema(
                    Tipo::IncorrectaMal,
                    format!("«{n}»: {ruta} no dice qué propiedad rompe (una línea «Rompe: ID»)"),
                ),
                _ => {}
            },
        }
    }
    for p in e.propiedades.iter().filter(|p| !rotas.contains(&p.id)) {
        problema(
            Tipo::PropiedadMal,
            format!(
                "«{n}»: ninguna respuesta incorrecta conocida rompe «{}»; añade una que demuestre que sus pruebas fallan",
                p.id
            ),
        );
    }
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
            requiere: vec![],
            propiedades: vec![],
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
