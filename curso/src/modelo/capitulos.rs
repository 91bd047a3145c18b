//! Los capítulos y sus tres crates: el único sitio que saca el número de un
//! capítulo de un nombre de carpeta y que construye un nombre de paquete.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::error::Error;

/// El número de un capítulo: `6` se escribe `06`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Numero(pub u8);

impl Numero {
    /// El número de un nombre de capítulo `NN-tema` (`06-hilos-verdes` → 6);
    /// `None` si el nombre no tiene esa forma.
    pub fn de_nombre(nombre: &str) -> Option<Numero> {
        let b = nombre.as_bytes();
        let forma = b.len() > 3 && b[..2].iter().all(u8::is_ascii_digit) && b[2] == b'-';
        forma.then(|| Numero((b[0] - b'0') * 10 + (b[1] - b'0')))
    }
}

impl fmt::Display for Numero {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}", self.0)
    }
}

/// ¿Es `nombre` (sin `.md`) el de un capítulo, `NN-tema`?
pub fn es_capitulo(nombre: &str) -> bool {
    Numero::de_nombre(nombre).is_some()
}

/// Los tres grupos de crates del curso.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Grupo {
    /// `lessons/NN-tema`, paquete `leccion-NN`.
    Lecciones,
    /// `exercises/NN-tema`, paquete `ejercicios-NN`.
    Ejercicios,
    /// `solutions/NN-tema`, paquete `soluciones-NN`.
    Soluciones,
}

impl Grupo {
    pub const TODOS: [Grupo; 3] = [Grupo::Lecciones, Grupo::Ejercicios, Grupo::Soluciones];

    /// La carpeta del grupo, relativa a la raíz: `lessons`.
    pub fn carpeta(self) -> &'static str {
        match self {
            Grupo::Lecciones => "lessons",
            Grupo::Ejercicios => "exercises",
            Grupo::Soluciones => "solutions",
        }
    }

    /// El principio de los nombres de paquete del grupo: `leccion`.
    pub fn prefijo(self) -> &'static str {
        match self {
            Grupo::Lecciones => "leccion",
            Grupo::Ejercicios => "ejercicios",
            Grupo::Soluciones => "soluciones",
        }
    }

    /// El paquete de este grupo para el capítulo `numero`: `leccion-06`.
    pub fn paquete(self, numero: Numero) -> String {
        format!("{}-{numero}", self.prefijo())
    }

    /// El grupo y el número de un nombre de paquete (`soluciones-06`).
    pub fn de_paquete(paquete: &str) -> Option<(Grupo, Numero)> {
        let (prefijo, numero) = paquete.rsplit_once('-')?;
        let grupo = Grupo::TODOS.into_iter().find(|g| g.prefijo() == prefijo)?;
        let digitos = numero.len() == 2 && numero.bytes().all(|b| b.is_ascii_digit());
        digitos.then(|| (grupo, Numero(numero.parse().unwrap_or(0))))
    }
}

/// Un capítulo del libro: `book/NN-tema.md`, con su lección, sus ejercicios y
/// sus soluciones en `lessons/NN-tema`, `exercises/NN-tema` y
/// `solutions/NN-tema`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capitulo {
    pub numero: Numero,
    /// El nombre completo, que es el de sus carpetas: `06-hilos-verdes`.
    pub nombre: String,
    /// El título: la primera línea `# ...` de su página.
    pub titulo: Option<String>,
    /// Lo que declara `**Tiempo estimado:** N minutos`.
    pub minutos: Option<u32>,
}

impl Capitulo {
    /// Un capítulo por su nombre (`06-hilos-verdes`), sin leer su página.
    pub fn de_nombre(nombre: &str) -> Option<Capitulo> {
        Some(Capitulo { numero: Numero::de_nombre(nombre)?, nombre: nombre.to_string(), titulo: None, minutos: None })
    }

    /// El tema, sin el número: `hilos-verdes`.
    pub fn tema(&self) -> &str {
        &self.nombre[3..]
    }

    /// Su página, relativa a la raíz: `book/06-hilos-verdes.md`.
    pub fn pagina(&self) -> PathBuf {
        Path::new("book").join(format!("{}.md", self.nombre))
    }

    /// La carpeta de su crate en `grupo`, relativa a la raíz.
    pub fn carpeta(&self, grupo: Grupo) -> PathBuf {
        Path::new(grupo.carpeta()).join(&self.nombre)
    }

    /// El paquete de su crate en `grupo`: `ejercicios-06`.
    pub fn paquete(&self, grupo: Grupo) -> String {
        grupo.paquete(self.numero)
    }

    /// Los capítulos del libro, en orden: cada `book/NN-tema.md`, con su
    /// título y sus minutos.
    pub fn leer_todos(raiz: &Path) -> Result<Vec<Capitulo>, Error> {
        let carpeta = raiz.join("book");
        let entradas = std::fs::read_dir(&carpeta).map_err(|e| Error::leer(&carpeta, e))?;
        let mut capitulos = Vec::new();
        for entrada in entradas.flatten() {
            let nombre = entrada.file_name().to_string_lossy().into_owned();
            let Some(mut c) = nombre.strip_suffix(".md").and_then(Capitulo::de_nombre) else { continue };
            let ruta = entrada.path();
            let texto = std::fs::read_to_string(&ruta).map_err(|e| Error::leer(ruta, e))?;
            c.titulo = titulo(&texto).map(str::to_string);
            c.minutos = tiempo_estimado(&texto);
            capitulos.push(c);
        }
        capitulos.sort_by(|a, b| a.nombre.cmp(&b.nombre));
        Ok(capitulos)
    }
}

/// Los minutos que declara un capítulo en `**Tiempo estimado:** N minutos`.
pub fn tiempo_estimado(texto: &str) -> Option<u32> {
    let resto = texto.split("**Tiempo estimado:**").nth(1)?;
    resto.split_whitespace().next()?.parse().ok()
}

/// El título de una página: su primera línea `# ...`.
pub fn titulo(texto: &str) -> Option<&str> {
    texto.lines().find_map(|l| l.strip_prefix("# "))
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn numeros_y_paquetes() {
        assert_eq!(Numero::de_nombre("06-hilos-verdes"), Some(Numero(6)));
        assert_eq!(Numero::de_nombre("glosario"), None);
        assert_eq!(Numero::de_nombre("06-"), None);
        assert_eq!(Numero(6).to_string(), "06");
        assert_eq!(Grupo::Lecciones.paquete(Numero(12)), "leccion-12");
        assert_eq!(Grupo::de_paquete("soluciones-06"), Some((Grupo::Soluciones, Numero(6))));
        assert_eq!(Grupo::de_paquete("curso"), None);
        let c = Capitulo::de_nombre("06-hilos-verdes").unwrap();
        assert_eq!(c.tema(), "hilos-verdes");
        assert_eq!(c.carpeta(Grupo::Ejercicios), Path::new("exercises/06-hilos-verdes"));
        assert_eq!(c.paquete(Grupo::Ejercicios), "ejercicios-06");
    }
}
