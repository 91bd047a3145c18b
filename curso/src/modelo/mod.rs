//! El curso, leído una vez: sus capítulos, los tres grupos de crates (con
//! sus carpetas y nombres de paquete), los ejercicios de las listas de cada
//! capítulo (`exercises/NN-tema/ejercicios.toml`), sus respuestas
//! incorrectas conocidas y su código inicial fijado en
//! `exercises/iniciales.toml`.
//!
//! Es el único sitio que saca el número de un capítulo de un nombre de
//! carpeta ([`Numero::de_nombre`]) y que construye un nombre de paquete
//! ([`Grupo::paquete`]). Lo demás recibe un [`Curso`] (o las piezas que
//! necesita) en vez de volver a leer el disco.

pub mod capitulos;
pub mod ejercicios;
pub mod incorrectas;
pub mod iniciales;

use std::path::{Path, PathBuf};

pub use capitulos::{Capitulo, Grupo, Numero, es_capitulo};
pub use ejercicios::Ejercicio;
pub use iniciales::Hashes;

use crate::error::{Error, Hallazgo};

/// El curso en una raíz.
#[derive(Debug, Clone)]
pub struct Curso {
    /// La raíz del espacio de trabajo.
    pub raiz: PathBuf,
    /// Los capítulos del libro (`book/NN-tema.md`), en orden.
    pub capitulos: Vec<Capitulo>,
    /// Los ejercicios, en orden de trabajo (por capítulo, y dentro del
    /// capítulo en el orden de la lista).
    pub ejercicios: Vec<Ejercicio>,
    /// Los hashes del código inicial, o por qué no se pudieron leer (lo que
    /// no los necesita, como `cargo curso lista`, funciona igual).
    iniciales: Result<Hashes, Error>,
}

impl Curso {
    /// Lee el curso de `raiz`: los capítulos del libro, la lista de
    /// ejercicios (obligatoria) y los hashes del código inicial (si están).
    pub fn cargar(raiz: &Path) -> Result<Curso, Error> {
        let ejercicios = ejercicios::leer(raiz)?;
        // Sin libro (una copia con solo los ejercicios) no hay capítulos que leer.
        let capitulos = if raiz.join("book").is_dir() { Capitulo::leer_todos(raiz)? } else { Vec::new() };
        Ok(Curso { raiz: raiz.to_path_buf(), capitulos, ejercicios, iniciales: iniciales::leer(raiz) })
    }

    /// Un curso hecho en memoria, sin leer nada (para pruebas).
    pub fn en_memoria(raiz: &Path, capitulos: Vec<Capitulo>, ejercicios: Vec<Ejercicio>, iniciales: Hashes) -> Curso {
        Curso { raiz: raiz.to_path_buf(), capitulos, ejercicios, iniciales: Ok(iniciales) }
    }

    /// Un curso con estos ejercicios (un subconjunto, unos de prueba), con
    /// los capítulos y los hashes de `raiz`.
    pub fn con_ejercicios(&self, ejercicios: Vec<Ejercicio>) -> Curso {
        Curso { ejercicios, ..self.clone() }
    }

    /// Una ruta relativa a la raíz, absoluta.
    pub fn ruta(&self, relativa: impl AsRef<Path>) -> PathBuf {
        self.raiz.join(relativa)
    }

    /// Los hashes del código inicial; el error dice cómo crearlos.
    pub fn iniciales(&self) -> Result<&Hashes, Error> {
        self.iniciales.as_ref().map_err(Clone::clone)
    }

    /// Un capítulo del libro por su nombre (`06-hilos-verdes`).
    pub fn capitulo(&self, nombre: &str) -> Option<&Capitulo> {
        self.capitulos.iter().find(|c| c.nombre == nombre)
    }

    /// Un ejercicio por su nombre.
    pub fn ejercicio(&self, nombre: &str) -> Option<&Ejercicio> {
        self.ejercicios.iter().find(|e| e.nombre == nombre)
    }

    /// La posición de un ejercicio en [`Curso::ejercicios`].
    pub fn posicion(&self, e: &Ejercicio) -> Option<usize> {
        self.ejercicios.iter().position(|x| x.nombre == e.nombre)
    }

    /// Los nombres de los capítulos con ejercicios, en orden y sin repetir.
    pub fn capitulos_con_ejercicios(&self) -> Vec<&str> {
        ejercicios::capitulos(&self.ejercicios)
    }

    /// Los ejercicios de un capítulo, en orden.
    pub fn ejercicios_de<'a>(&'a self, capitulo: &'a str) -> impl Iterator<Item = &'a Ejercicio> + 'a {
        self.ejercicios.iter().filter(move |e| e.capitulo == capitulo)
    }

    /// Todo lo que está mal en la lista, sin compilar nada.
    pub fn validar(&self) -> Vec<Hallazgo> {
        ejercicios::validar(&self.raiz, &self.ejercicios)
    }

    /// Las carpetas de `exercises/` que no tienen ningún ejercicio en la lista.
    pub fn carpetas_sin_ejercicios(&self) -> Vec<Hallazgo> {
        ejercicios::carpetas_sin_ejercicios(&self.raiz, &self.ejercicios)
    }

    /// El contenido inicial del archivo de un ejercicio (el actual si no ha
    /// cambiado, o el que guarda git).
    pub fn contenido_inicial(&self, e: &Ejercicio) -> Result<Vec<u8>, Error> {
        iniciales::contenido(&self.raiz, e, self.iniciales()?)
    }

    /// ¿Sigue el archivo del ejercicio tal como se publicó? (Sin hashes, no.)
    pub fn sin_tocar(&self, e: &Ejercicio) -> bool {
        self.iniciales.as_ref().is_ok_and(|h| iniciales::sin_tocar(&self.raiz, e, h))
    }

    /// El hash git del archivo del ejercicio tal como está ahora.
    pub fn hash_actual(&self, e: &Ejercicio) -> Option<String> {
        std::fs::read(self.ruta(e.ruta())).ok().map(|c| iniciales::hash_git(&c))
    }

    /// El hash fijado del código inicial de un ejercicio.
    pub fn hash_inicial(&self, e: &Ejercicio) -> Option<&String> {
        self.iniciales.as_ref().ok().and_then(|h| h.get(&e.nombre))
    }
}

/// La raíz del espacio de trabajo del curso: la variable `CURSO_RAIZ`, o la
/// primera carpeta, de la actual hacia arriba, con `book.toml` y
/// `exercises/`; si no la hay, la del código fuente.
pub fn raiz() -> PathBuf {
    if let Some(r) = std::env::var_os("CURSO_RAIZ") {
        return PathBuf::from(r);
    }
    if let Ok(actual) = std::env::current_dir()
        && let Some(r) = actual.ancestors().find(|d| es_raiz(d))
    {
        return r.to_path_buf();
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("curso/ está dentro de la raíz").to_path_buf()
}

fn es_raiz(dir: &Path) -> bool {
    dir.join("book.toml").is_file() && dir.join(Grupo::Ejercicios.carpeta()).is_dir()
}

/// Quita `.` y `..` de una ruta sin tocar el disco.
pub fn normalizar(ruta: &Path) -> PathBuf {
    let mut salida = PathBuf::new();
    for c in ruta.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                salida.pop();
            }
            otro => salida.push(otro),
        }
    }
    salida
}
