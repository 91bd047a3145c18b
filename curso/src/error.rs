//! Los errores de la herramienta y los hallazgos de sus comprobaciones.
//!
//! Un [`Error`] para la orden: algo impidió hacer lo pedido (un archivo que
//! no se lee, un programa que no arranca), y lleva la ruta o el programa.
//! Un [`Hallazgo`] no para nada: es una cosa que está mal en el curso, con su
//! lugar y una frase en español.

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;

pub use crate::hallazgo::Tipo;

/// Lo que impidió hacer lo pedido. Los mensajes son frases en español.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Error {
    #[error("no puedo leer {}: {fuente}", ruta.display())]
    Leer { ruta: PathBuf, fuente: Arc<io::Error> },
    #[error("no puedo escribir {}: {fuente}", ruta.display())]
    Escribir { ruta: PathBuf, fuente: Arc<io::Error> },
    #[error("no puedo crear {}: {fuente}", ruta.display())]
    Crear { ruta: PathBuf, fuente: Arc<io::Error> },
    #[error("{} no es válido: {fuente}", ruta.display())]
    Formato { ruta: PathBuf, fuente: String },
    /// Un programa que no se pudo arrancar (no está instalado, no se encuentra).
    #[error("no puedo ejecutar {programa}: {fuente}{}", pista.as_deref().map(|p| format!("; {p}")).unwrap_or_default())]
    Lanzar { programa: String, fuente: Arc<io::Error>, pista: Option<String> },
    /// Un programa que arrancó y terminó mal.
    #[error("`{orden}` falló{}", if detalle.is_empty() { String::new() } else { format!(":\n{detalle}") })]
    Fallo { orden: String, detalle: String },
    /// El código inicial de un ejercicio no está fijado o no se encuentra.
    #[error("{0}")]
    Inicial(String),
    /// Una orden que no se puede cumplir tal como se pidió, explicada.
    #[error("{0}")]
    Mensaje(String),
}

impl Error {
    pub fn leer(ruta: impl Into<PathBuf>, fuente: io::Error) -> Error {
        Error::Leer { ruta: ruta.into(), fuente: Arc::new(fuente) }
    }
    pub fn escribir(ruta: impl Into<PathBuf>, fuente: io::Error) -> Error {
        Error::Escribir { ruta: ruta.into(), fuente: Arc::new(fuente) }
    }
    pub fn crear(ruta: impl Into<PathBuf>, fuente: io::Error) -> Error {
        Error::Crear { ruta: ruta.into(), fuente: Arc::new(fuente) }
    }
    pub fn formato(ruta: impl Into<PathBuf>, fuente: impl fmt::Display) -> Error {
        Error::Formato { ruta: ruta.into(), fuente: fuente.to_string() }
    }
    pub fn mensaje(texto: impl Into<String>) -> Error {
        Error::Mensaje(texto.into())
    }
}

/// Dónde está lo que está mal.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Lugar {
    /// Un ejercicio de la lista, por su nombre.
    Ejercicio(String),
    /// Un capítulo (`06-hilos-verdes`).
    Capitulo(String),
    /// Un archivo, relativo a la raíz, y quizá una línea.
    Archivo { ruta: PathBuf, linea: Option<usize> },
    /// El curso entero (la lista, el espacio de trabajo).
    Curso,
}

/// Una cosa que está mal: su lugar y la frase que la explica (que ya nombra
/// el lugar, como la lee quien mantiene el curso).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hallazgo {
    pub lugar: Lugar,
    pub mensaje: String,
    /// Su clase, para distinguirlo sin mirar el mensaje.
    pub tipo: Tipo,
}

impl Hallazgo {
    pub fn new(lugar: Lugar, mensaje: impl Into<String>) -> Hallazgo {
        Hallazgo { lugar, mensaje: mensaje.into(), tipo: Tipo::General }
    }
    /// Un hallazgo de una clase.
    pub fn con_tipo(lugar: Lugar, tipo: Tipo, mensaje: impl Into<String>) -> Hallazgo {
        Hallazgo { lugar, mensaje: mensaje.into(), tipo }
    }
    /// Un hallazgo en un archivo (relativo a la raíz) y quizá una línea.
    pub fn en_archivo(
        ruta: impl Into<PathBuf>,
        linea: Option<usize>,
        tipo: Tipo,
        mensaje: impl Into<String>,
    ) -> Hallazgo {
        Hallazgo::con_tipo(Lugar::Archivo { ruta: ruta.into(), linea }, tipo, mensaje)
    }
    pub fn de_ejercicio(nombre: &str, mensaje: impl Into<String>) -> Hallazgo {
        Hallazgo::new(Lugar::Ejercicio(nombre.to_string()), mensaje)
    }
    pub fn de_capitulo(capitulo: &str, mensaje: impl Into<String>) -> Hallazgo {
        Hallazgo::new(Lugar::Capitulo(capitulo.to_string()), mensaje)
    }
}

impl fmt::Display for Hallazgo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.mensaje)
    }
}

/// Los hallazgos, uno por línea con un guion delante (para un informe).
pub fn en_lista(hallazgos: &[Hallazgo]) -> String {
    hallazgos.iter().map(|h| format!("- {h}")).collect::<Vec<_>>().join("\n")
}
