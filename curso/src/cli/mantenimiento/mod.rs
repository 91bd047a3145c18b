//! `cargo curso mantenimiento ...`: las órdenes de quien mantiene el curso.
//!
//! Las que reescriben archivos versionados (`fija-iniciales`, `graficas`,
//! `mide`, `trazas`) se niegan si esos archivos difieren de `HEAD` (salvo `--forzar`),
//! preguntan antes (salvo `--si`) y dicen qué cambiaron.
//!
//! Una función corta por orden: [`revisar`] (comprobar, estilo, ortografía,
//! navegador), [`medir`] (ciclo, mediciones, gráficas) y [`trazas`] (las
//! trazas grabadas de Tokio); aquí, los iniciales y el preprocesador.

mod medir;
mod revisar;
mod trazas;

use std::path::{Path, PathBuf};

use clap::Subcommand;

use curso::modelo::iniciales;
use curso::{Curso, Error, libro, versionados};

use super::PLANTILLA;
use super::aprendiz::confirmar;

#[derive(Subcommand)]
pub enum Orden {
    /// Comprueba todo el curso: libro, ejercicios, soluciones y cada respuesta incorrecta conocida
    #[command(help_template = PLANTILLA, next_help_heading = "Opciones")]
    Comprueba {
        /// Verifica solo los ejercicios de estos capítulos (por ejemplo, 06-hilos-verdes); se puede repetir
        #[arg(long, value_name = "CAPITULO")]
        capitulo: Vec<String>,
        /// Solo los ejercicios: sin construir ni revisar el libro
        #[arg(long)]
        solo_ejercicios: bool,
        /// Repite la verificación N veces y cuenta los fallos de cada vez (para buscar pruebas inestables)
        #[arg(long, value_name = "N", default_value_t = 1)]
        repite: u32,
    },
    /// El formato (cargo fmt --check) y clippy sin avisos en todo el espacio de trabajo
    #[command(help_template = PLANTILLA)]
    Estilo,
    /// Abre el libro, construido como en GitHub Pages, en Chromium sin interfaz y lo revisa
    #[command(help_template = PLANTILLA, next_help_heading = "Opciones")]
    Navegador {
        /// Dónde dejar las capturas de pantalla
        #[arg(long, value_name = "CARPETA", default_value = "target/capturas")]
        capturas: PathBuf,
    },
    /// Revisa la ortografía del libro con hunspell y el diccionario español
    #[command(help_template = PLANTILLA)]
    Ortografia,
    /// Mide el ciclo de trabajo en esta máquina: cargo test en frío, editar y probar, el libro
    #[command(help_template = PLANTILLA, next_help_heading = "Opciones")]
    Ciclo {
        /// Sáltate el cargo test en frío (tarda minutos)
        #[arg(long)]
        sin_frio: bool,
    },
    /// Repite las mediciones del libro en esta máquina y guarda los resultados en JSON
    #[command(help_template = PLANTILLA, next_help_heading = "Opciones")]
    Mide {
        /// Modo rápido (compilación dev y `--rapido`): comprueba que todo se ejecuta, no mide en serio
        #[arg(long)]
        rapido: bool,
        /// Solo las del capítulo que empieza así (por ejemplo, 06)
        #[arg(long, value_name = "CAPITULO")]
        capitulo: Option<String>,
        #[command(flatten)]
        reescritura: Reescritura,
    },
    /// Vuelve a dibujar las gráficas del libro a partir de los resultados guardados en las lecciones
    #[command(help_template = PLANTILLA, next_help_heading = "Opciones")]
    Graficas {
        #[command(flatten)]
        reescritura: Reescritura,
    },
    /// Un preprocesador del curso para mdbook (lo lanza `mdbook build`, según book.toml)
    #[command(help_template = PLANTILLA)]
    Preprocesador {
        /// directivas-del-curso o enlaces-al-repositorio
        #[arg(value_name = "NOMBRE", help_heading = "Argumentos")]
        nombre: String,
        /// Lo que añade mdbook: `supports RENDERIZADOR`
        #[arg(value_name = "ARGUMENTOS", help_heading = "Argumentos", trailing_var_arg = true)]
        argumentos: Vec<String>,
    },
    /// Vuelve a grabar las trazas del Tokio de verdad (capítulo 8) en esta máquina y comprueba que cuadran
    #[command(help_template = PLANTILLA, next_help_heading = "Opciones")]
    Trazas {
        /// La máquina donde grabas, con su clave de curso/maquinas.toml (por ejemplo, epyc-2026-12)
        #[arg(long, value_name = "CLAVE")]
        maquina: String,
        #[command(flatten)]
        reescritura: Reescritura,
    },
    /// Vuelve a fijar el código inicial de los ejercicios (exercises/iniciales.toml)
    #[command(name = "fija-iniciales", help_template = PLANTILLA, next_help_heading = "Opciones")]
    FijaIniciales {
        #[command(flatten)]
        reescritura: Reescritura,
    },
}

/// Las opciones de las órdenes que reescriben archivos versionados.
#[derive(clap::Args, Clone, Copy)]
pub struct Reescritura {
    /// No preguntes: responde que sí
    #[arg(long)]
    si: bool,
    /// Reescribe aunque esos archivos tengan cambios sin commit
    #[arg(long)]
    forzar: bool,
}

pub fn ejecutar(raiz: &Path, orden: Orden) -> Result<(), Error> {
    match orden {
        Orden::Comprueba { capitulo, solo_ejercicios, repite } => {
            revisar::comprueba(&Curso::cargar(raiz)?, &capitulo, solo_ejercicios, repite)
        }
        Orden::Navegador { capturas } => revisar::navegador(raiz, &capturas),
        Orden::Ortografia => revisar::ortografia(raiz),
        Orden::Estilo => revisar::estilo(&Curso::cargar(raiz)?),
        Orden::Ciclo { sin_frio } => medir::ciclo(raiz, sin_frio),
        Orden::Mide { rapido, capitulo, reescritura } => medir::mide(raiz, rapido, capitulo.as_deref(), reescritura),
        Orden::Graficas { reescritura } => medir::graficas(raiz, reescritura),
        Orden::Trazas { maquina, reescritura } => trazas::trazas(raiz, &maquina, reescritura),
        Orden::FijaIniciales { reescritura } => fija_iniciales(&Curso::cargar(raiz)?, reescritura),
        Orden::Preprocesador { nombre, argumentos } => preprocesador(&nombre, &argumentos),
    }
}

/// Antes de reescribir `rutas`: se niega si difieren de `HEAD` (salvo
/// `--forzar`) y pregunta (salvo `--si`). `Ok(false)`: no hay que hacer nada.
fn permitir(raiz: &Path, rutas: &[&str], que: &str, r: Reescritura) -> Result<bool, Error> {
    let sucios = versionados::distintos_de_head(raiz, rutas)?;
    if !sucios.is_empty() && !r.forzar {
        return Err(Error::mensaje(format!(
            "no {que}: estos archivos tienen cambios sin commit y los pisaría:\n  {}\nHaz commit antes (o \
             `git restore` si no los quieres), o repite con --forzar",
            sucios.join("\n  ")
        )));
    }
    if !r.si && !confirmar(&format!("¿{}?", primera_mayuscula(que))) {
        println!("No he cambiado nada.");
        return Ok(false);
    }
    Ok(true)
}

fn primera_mayuscula(texto: &str) -> String {
    let mut c = texto.chars();
    c.next().map(|p| p.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// Dice qué archivos de `rutas` cambiaron respecto a `HEAD`.
fn contar_cambios(raiz: &Path, rutas: &[&str]) -> Result<(), Error> {
    let cambios = versionados::distintos_de_head(raiz, rutas)?;
    if cambios.is_empty() {
        println!("Ningún archivo cambió respecto a HEAD.");
    } else {
        println!("Archivos distintos de HEAD ahora ({}):\n  {}", cambios.len(), cambios.join("\n  "));
    }
    Ok(())
}

fn fija_iniciales(curso: &Curso, r: Reescritura) -> Result<(), Error> {
    let archivos: Vec<String> = curso.ejercicios.iter().map(|e| e.ruta().display().to_string()).collect();
    let mut rutas: Vec<&str> = archivos.iter().map(String::as_str).collect();
    rutas.push(iniciales::INICIALES);
    let antes = curso.iniciales().cloned().unwrap_or_default();
    if !permitir(&curso.raiz, &rutas, "fijar como código inicial los archivos de exercises/ tal como están", r)? {
        return Ok(());
    }
    iniciales::fijar(&curso.raiz, &curso.ejercicios)?;
    let despues = iniciales::leer(&curso.raiz)?;
    let cambiados: Vec<&str> = curso
        .ejercicios
        .iter()
        .filter(|e| antes.get(&e.nombre) != despues.get(&e.nombre))
        .map(|e| e.nombre.as_str())
        .collect();
    if cambiados.is_empty() {
        let n = curso.ejercicios.len();
        println!("{} no cambia: los {n} iniciales ya estaban fijados así.", iniciales::INICIALES);
    } else {
        println!("Fijado de nuevo el código inicial de {}: {}.", cambiados.len(), cambiados.join(", "));
    }
    Ok(())
}

/// Habla con mdbook por la entrada y la salida estándar. Con `supports`, un
/// código de salida distinto de cero dice «no sirve para ese renderizador».
fn preprocesador(nombre: &str, argumentos: &[String]) -> Result<(), Error> {
    let stdout = std::io::stdout();
    if libro::preprocesar(nombre, argumentos, std::io::stdin().lock(), stdout.lock())? {
        Ok(())
    } else {
        std::process::exit(1)
    }
}
