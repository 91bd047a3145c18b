//! Construye el libro con mdbook y mdbook-mermaid usados como bibliotecas,
//! a las versiones fijadas en `curso/Cargo.toml`.
//!
//! `book.toml` declara los mismos preprocesadores que se registran aquí, con
//! los mismos nombres: `mermaid` (la orden `mdbook-mermaid`) y los del curso,
//! [`DIRECTIVAS`] y [`ENLACES`] (la orden `cargo curso mantenimiento
//! preprocesador NOMBRE`, que habla el protocolo de preprocesadores de
//! mdbook, ver [`preprocesar`]). Así `mdbook build` y `mdbook serve`, con
//! mdbook 0.5.4 y mdbook-mermaid 0.17.1 instalados, dan el mismo sitio que
//! `cargo libro`, que no necesita nada instalado: aquí los preprocesadores
//! declarados se sustituyen por los mismos, dentro del proceso.
//!
//! mdbook termina bien aunque falte un archivo incluido o un ancla (solo lo
//! escribe como ERROR en su registro), así que aquí se cuentan los errores y
//! avisos que registra, construcción a construcción ([`contador`]), y quien
//! llama decide qué hacer con ellos.
//!
//! Las piezas: [`preprocesadores`], [`tablas`] (ejercicios y horario),
//! [`enlaces`] (al repositorio) y [`contador`].

pub mod contador;
pub mod cuestionarios;
pub mod ejecutables;
pub mod enlaces;
pub mod errores;
pub mod preprocesadores;
pub mod tablas;
pub mod trazas;

use std::path::{Path, PathBuf};

use mdbook_driver::MDBook;

pub use enlaces::{Repositorio, reescribir_enlaces};
pub use preprocesadores::{
    DIRECTIVAS, DirectivasDelCurso, ENLACES, EnlacesAlRepositorio, REPOSITORIO_POR_DEFECTO, preprocesar, repositorio,
};
pub use tablas::{tabla_de_ejercicios, tabla_de_horario};

use crate::error::Error;
use crate::servidor::RECARGA;

/// La versión de mdbook con la que se construye el libro (y para la que se
/// revisó el tema de `curso/tema/`).
pub const VERSION_DE_MDBOOK: &str = "0.5.4";
/// La de mdbook-mermaid.
pub const VERSION_DE_MDBOOK_MERMAID: &str = "0.17.1";

/// Lo que se publica con el sitio sin salir de `mdbook build`: el libro en
/// PDF, que hace `curso/js/pdf.mjs` con Chromium a partir de `print.html`
/// (el flujo de Pages lo construye detrás del libro, y la prueba del
/// navegador también). Los capítulos pueden enlazarlo desde la raíz del
/// libro; las revisiones de enlaces lo dan por bueno.
pub const PUBLICADOS_APARTE: &[&str] = &["rust-asincrono-por-dentro.pdf"];

/// Cómo construir el libro; por defecto, como `mdbook build`.
#[derive(Debug, Clone, Default)]
pub struct Opciones {
    /// La carpeta de salida (por defecto, el `build-dir` de `book.toml`).
    pub destino: Option<PathBuf>,
    /// Con el guion de recarga de mdbook apuntando a este punto (el del
    /// servidor es [`RECARGA`]), como con `mdbook serve`.
    pub recarga: Option<String>,
    /// La ruta base del sitio (`output.html.site-url`), como la de GitHub
    /// Pages (`/curso-async/`).
    pub url_del_sitio: Option<String>,
}

/// Cómo terminó una construcción.
#[derive(Debug)]
pub struct Construccion {
    pub destino: PathBuf,
    pub errores: usize,
    pub avisos: usize,
}

/// Construye el libro de `raiz` en `destino` (por defecto, el `build-dir`
/// de `book.toml`). Devuelve cuántos errores y avisos registró mdbook.
pub fn construir(raiz: &Path, destino: Option<&Path>) -> Result<Construccion, Error> {
    construir_con(raiz, &Opciones { destino: destino.map(Path::to_path_buf), ..Opciones::default() })
}

/// Un valor de configuración para esta construcción, como si estuviera en `book.toml`.
fn fijar(libro: &mut MDBook, clave: &str, valor: &str) -> Result<(), Error> {
    libro.config.set(clave, valor).map_err(|e| Error::mensaje(format!("no puedo fijar {clave} en el libro: {e:#}")))
}

/// Como [`construir`], con [`Opciones`]. Los errores y avisos que mdbook
/// registra al cargar el libro y al construirlo se cuentan solo para esta
/// construcción.
pub fn construir_con(raiz: &Path, opciones: &Opciones) -> Result<Construccion, Error> {
    let (hecho, errores, avisos) = contador::Contador::durante(|| cargar_y_construir(raiz, opciones));
    Ok(Construccion { destino: hecho?, errores, avisos })
}

/// Carga el libro con sus opciones, registra los preprocesadores y lo
/// construye. Devuelve la carpeta de salida.
fn cargar_y_construir(raiz: &Path, opciones: &Opciones) -> Result<PathBuf, Error> {
    let mut libro = MDBook::load(raiz).map_err(|e| Error::formato(raiz.join("book.toml"), format!("{e:#}")))?;
    if let Some(d) = &opciones.destino {
        libro.config.build.build_dir = d.clone();
    }
    if let Some(punto) = &opciones.recarga {
        fijar(&mut libro, "output.html.live-reload-endpoint", punto)?;
    }
    if let Some(url) = &opciones.url_del_sitio {
        fijar(&mut libro, "output.html.site-url", url)?;
    }
    // Los mismos nombres que en book.toml: sustituyen, en su sitio, a las
    // órdenes externas que mdbook habría lanzado.
    for nombre in ["mermaid", DIRECTIVAS, ENLACES] {
        if libro.config.get::<toml::Value>(&format!("preprocessor.{nombre}")).ok().flatten().is_none() {
            return Err(Error::mensaje(format!(
                "book.toml no declara el preprocesador «{nombre}» ([preprocessor.{nombre}])"
            )));
        }
    }
    libro.with_preprocessor(mdbook_mermaid::Mermaid);
    libro.with_preprocessor(DirectivasDelCurso);
    libro.with_preprocessor(EnlacesAlRepositorio);
    libro.build().map_err(|e| Error::mensaje(format!("mdbook no pudo construir el libro: {e:#}")))?;
    Ok(raiz.join(&libro.config.build.build_dir))
}

/// Lo que rehace el libro en `cargo libro` cuando cambia una fuente: la
/// misma construcción, con el guion de recarga, en una carpeta aparte
/// (`CARPETA.nueva`) que después ocupa el sitio de `carpeta`; así el servidor
/// nunca sirve un libro a medio escribir. Los errores y avisos de mdbook
/// hacen fallar la reconstrucción (quedan escritos arriba) y dejan el libro
/// anterior.
pub fn reconstruir_en_vivo(raiz: &Path, carpeta: &Path) -> impl FnMut() -> Result<(), Error> + Send + 'static {
    let raiz = raiz.to_path_buf();
    let con_sufijo = |sufijo: &str| {
        let mut nombre = carpeta.file_name().unwrap_or_default().to_os_string();
        nombre.push(sufijo);
        carpeta.with_file_name(nombre)
    };
    let (nueva, vieja, carpeta) = (con_sufijo(".nueva"), con_sufijo(".vieja"), con_sufijo(""));
    let opciones = Opciones { destino: Some(nueva.clone()), recarga: Some(RECARGA.into()), url_del_sitio: None };
    move || {
        let _ = std::fs::remove_dir_all(&nueva);
        let hecho = construir_con(&raiz, &opciones)?;
        if hecho.errores + hecho.avisos > 0 {
            return Err(Error::mensaje(format!(
                "{} errores y {} avisos de mdbook (arriba)",
                hecho.errores, hecho.avisos
            )));
        }
        let _ = std::fs::remove_dir_all(&vieja);
        std::fs::rename(&carpeta, &vieja).map_err(|e| Error::escribir(&carpeta, e))?;
        std::fs::rename(&nueva, &carpeta).map_err(|e| Error::escribir(&carpeta, e))?;
        let _ = std::fs::remove_dir_all(&vieja);
        Ok(())
    }
}
