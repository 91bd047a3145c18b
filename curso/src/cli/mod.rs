//! La línea de órdenes de `cargo curso`, en español.
//!
//! Dos públicos, dos juegos de órdenes: `cargo curso --help` muestra solo lo
//! que usa quien aprende; lo de quien mantiene el curso vive bajo
//! `cargo curso mantenimiento`, con su propia ayuda. Cada orden es una
//! función corta en [`aprendiz`], [`vigila`] o [`mantenimiento`].

pub mod aprendiz;
pub mod mantenimiento;
pub mod vigila;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{ArgAction, CommandFactory, Parser, Subcommand};
use curso::{Curso, Error};
use opciones::{PLANTILLA, en_espanol};

/// Lo que se lee al final de `cargo curso --help`.
const PIE: &str = "Más ayuda de una orden: cargo curso ayuda ORDEN (o cargo curso ORDEN --help).\n\
                   Quien mantiene el curso tiene sus propias órdenes: cargo curso mantenimiento --help";

#[derive(Parser)]
#[command(
    name = "cargo curso",
    bin_name = "cargo curso",
    about = "La herramienta del curso de Rust asíncrono: tus ejercicios, tu progreso y el libro.",
    help_template = PLANTILLA,
    after_help = PIE,
    disable_help_flag = true,
    disable_help_subcommand = true,
    disable_version_flag = true,
    subcommand_help_heading = "Órdenes",
    next_help_heading = "Opciones",
    subcommand_value_name = "ORDEN"
)]
pub struct Cli {
    #[command(subcommand)]
    pub orden: Orden,
    /// Muestra esta ayuda
    #[arg(short = 'h', long = "help", action = ArgAction::Help, global = true)]
    ayuda: Option<bool>,
}

/// Las órdenes de quien aprende.
#[derive(Subcommand)]
pub enum Orden {
    /// Lista los ejercicios con su estado y tu progreso
    #[command(help_template = PLANTILLA)]
    Lista,
    /// Prueba un ejercicio (por defecto, el siguiente pendiente) y resume el resultado
    #[command(help_template = PLANTILLA, next_help_heading = "Opciones")]
    Verifica {
        /// El nombre del ejercicio (míralo con `cargo curso lista`)
        #[arg(value_name = "EJERCICIO", help_heading = "Argumentos", conflicts_with = "todos")]
        ejercicio: Option<String>,
        /// Prueba todos los ejercicios, capítulo a capítulo, y rehace tu progreso
        #[arg(long)]
        todos: bool,
    },
    /// Vuelve a probar un ejercicio cada vez que guardas; pasa al siguiente cuando lo superas
    #[command(help_template = PLANTILLA, next_help_heading = "Opciones")]
    Vigila {
        /// El ejercicio que vigilar (por defecto, el siguiente pendiente)
        #[arg(value_name = "EJERCICIO", help_heading = "Argumentos")]
        ejercicio: Option<String>,
        /// Sin vigilar archivos: lee órdenes del teclado y Enter vuelve a probar
        #[arg(long)]
        manual: bool,
    },
    /// Te da la siguiente pista de un ejercicio, de menos a más (por defecto, el siguiente pendiente)
    #[command(help_template = PLANTILLA, next_help_heading = "Opciones")]
    Pista {
        /// El nombre del ejercicio
        #[arg(value_name = "EJERCICIO", help_heading = "Argumentos")]
        ejercicio: Option<String>,
        /// Todas sus pistas de una vez
        #[arg(long)]
        todas: bool,
    },
    /// Dice dónde está la solución de un ejercicio que ya superaste y cómo ejecutarla
    #[command(help_template = PLANTILLA, next_help_heading = "Opciones")]
    Solucion {
        /// El nombre del ejercicio
        #[arg(value_name = "EJERCICIO", help_heading = "Argumentos")]
        ejercicio: String,
        /// Muéstrala aunque no hayas superado el ejercicio (para quien enseña)
        #[arg(long)]
        mostrar: bool,
    },
    /// Devuelve un ejercicio a su código inicial (guarda antes una copia del tuyo)
    #[command(help_template = PLANTILLA, next_help_heading = "Opciones")]
    Reinicia {
        /// El nombre del ejercicio
        #[arg(value_name = "EJERCICIO", help_heading = "Argumentos")]
        ejercicio: String,
        /// No preguntes: responde que sí
        #[arg(long)]
        si: bool,
    },
    /// Construye el libro (con sus diagramas) y lo sirve en http://127.0.0.1:3000
    #[command(help_template = PLANTILLA, next_help_heading = "Opciones")]
    Libro {
        /// Solo construye el libro; no lo sirve
        #[arg(long)]
        solo_construir: bool,
        /// Puerto local donde servirlo
        #[arg(long, default_value_t = 3000, value_name = "N")]
        puerto: u16,
        /// Carpeta de salida (por defecto, target/libro)
        #[arg(long, value_name = "CARPETA")]
        destino: Option<PathBuf>,
    },
    /// Muestra la ayuda de cargo curso o la de una orden
    #[command(help_template = PLANTILLA, alias = "help")]
    Ayuda {
        /// La orden de la que quieres ayuda
        #[arg(value_name = "ORDEN", help_heading = "Argumentos")]
        orden: Option<String>,
    },
    /// Las órdenes de quien mantiene el curso
    #[command(
        subcommand,
        hide = true,
        help_template = PLANTILLA,
        subcommand_help_heading = "Órdenes",
        subcommand_value_name = "ORDEN",
        about = "Las órdenes de quien mantiene el curso: comprobar, medir, revisar el libro publicado."
    )]
    Mantenimiento(mantenimiento::Orden),
}

/// Punto de entrada: lee los argumentos, ejecuta la orden y traduce el resultado a un código de salida.
pub fn principal() -> ExitCode {
    let cli = match Cli::try_parse_from(argumentos()) {
        Ok(cli) => cli,
        Err(e) => return error_de_argumentos(&e),
    };
    let raiz = curso::raiz();
    let resultado = match cli.orden {
        Orden::Lista => con_curso(&raiz, aprendiz::lista),
        Orden::Verifica { todos: true, .. } => con_curso(&raiz, aprendiz::verifica_todos),
        Orden::Verifica { ejercicio, .. } => con_curso(&raiz, |c| aprendiz::verifica(c, ejercicio.as_deref())),
        Orden::Vigila { ejercicio, manual } => con_curso(&raiz, |c| vigila::vigilar(c, ejercicio.as_deref(), manual)),
        Orden::Pista { ejercicio, todas } => con_curso(&raiz, |c| aprendiz::pista(c, ejercicio.as_deref(), todas)),
        Orden::Solucion { ejercicio, mostrar } => con_curso(&raiz, |c| aprendiz::solucion(c, &ejercicio, mostrar)),
        Orden::Reinicia { ejercicio, si } => con_curso(&raiz, |c| aprendiz::reinicia(c, &ejercicio, si)),
        Orden::Libro { solo_construir, puerto, destino } => {
            aprendiz::libro(&raiz, solo_construir, puerto, destino.as_deref())
        }
        Orden::Ayuda { orden } => return ayuda(orden.as_deref()),
        Orden::Mantenimiento(orden) => mantenimiento::ejecutar(&raiz, orden),
    };
    match resultado {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Carga el curso de `raiz` y ejecuta con él la orden `f`.
fn con_curso(raiz: &std::path::Path, f: impl FnOnce(&Curso) -> Result<(), Error>) -> Result<(), Error> {
    f(&Curso::cargar(raiz)?)
}

/// `cargo curso x` llega como `curso x`; `cargo run -p curso -- curso x` también.
fn argumentos() -> Vec<String> {
    let mut args: Vec<String> = std::env::args().collect();
    if args.get(1).is_some_and(|a| a == "curso") {
        args.remove(1);
    }
    args
}

/// La ayuda de la herramienta, o la de una orden (también las de mantenimiento).
fn ayuda(orden: Option<&str>) -> ExitCode {
    let mut raiz = Cli::command();
    raiz.build();
    let Some(nombre) = orden else {
        print!("{}", en_espanol(&raiz.render_help().to_string()));
        return ExitCode::SUCCESS;
    };
    let encontrada = raiz.find_subcommand_mut(nombre).map(|c| c.render_help().to_string()).or_else(|| {
        raiz.find_subcommand_mut("mantenimiento")
            .and_then(|m| m.find_subcommand_mut(nombre))
            .map(|c| c.render_help().to_string())
    });
    match encontrada {
        Some(texto) => {
            print!("{}", en_espanol(&texto));
            ExitCode::SUCCESS
        }
        None => {
            eprintln!("error: «{nombre}» no es una orden de cargo curso; míralas con cargo curso --help");
            ExitCode::from(2)
        }
    }
}

/// Los errores de clap, en español y en una línea (la traducción es la de
/// las lecciones, del crate `opciones`). La ayuda no es un error: sale por
/// la salida estándar y con éxito.
fn error_de_argumentos(e: &clap::Error) -> ExitCode {
    let mensaje = opciones::mensaje_de_error(e, "cargo curso");
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            print!("{mensaje}");
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand => {
            eprint!("{mensaje}");
            ExitCode::from(2)
        }
        _ => {
            eprintln!("error: {mensaje}\n(ayuda: {})", ayuda_de(&argumentos()));
            ExitCode::from(2)
        }
    }
}

/// Dónde está la ayuda de la orden que se escribió (`cargo curso ayuda
/// verifica`), o la general si no se escribió ninguna que exista.
fn ayuda_de(args: &[String]) -> String {
    let raiz = Cli::command();
    let mut palabras = args.iter().skip(1).filter(|a| !a.starts_with('-'));
    let Some(primera) = palabras.next() else { return "cargo curso --help".into() };
    let Some(orden) = raiz.find_subcommand(primera) else { return "cargo curso --help".into() };
    if orden.get_name() == "mantenimiento" {
        return match palabras.next().filter(|s| orden.find_subcommand(s).is_some()) {
            Some(sub) => format!("cargo curso ayuda {sub}"),
            None => "cargo curso mantenimiento --help".into(),
        };
    }
    format!("cargo curso ayuda {}", orden.get_name())
}

#[cfg(test)]
mod pruebas {
    use super::*;

    /// Palabras de la interfaz de clap que no deben llegar a quien usa el curso.
    const EN_INGLES: &[&str] =
        &["Usage", "Arguments", "Options", "Commands", "OPTIONS", "COMMAND", "default:", "Print help"];

    fn todas_las_ayudas() -> Vec<(String, String)> {
        let mut raiz = Cli::command();
        raiz.build();
        let mut ayudas = vec![("cargo curso".to_string(), raiz.clone().render_help().to_string())];
        for sub in raiz.get_subcommands() {
            ayudas.push((sub.get_name().to_string(), sub.clone().render_help().to_string()));
            for subsub in sub.get_subcommands() {
                ayudas.push((subsub.get_name().to_string(), subsub.clone().render_help().to_string()));
            }
        }
        ayudas
    }

    #[test]
    fn ninguna_ayuda_tiene_palabras_en_ingles() {
        for (orden, texto) in todas_las_ayudas() {
            let texto = en_espanol(&texto);
            for palabra in EN_INGLES {
                assert!(!texto.contains(palabra), "la ayuda de «{orden}» dice «{palabra}»:\n{texto}");
            }
        }
    }

    #[test]
    fn un_error_de_argumentos_manda_a_la_ayuda_de_su_orden() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(ayuda_de(&args(&["curso", "verifica", "a", "b"])), "cargo curso ayuda verifica");
        assert_eq!(ayuda_de(&args(&["curso", "--xyz"])), "cargo curso --help");
        assert_eq!(ayuda_de(&args(&["curso", "nada"])), "cargo curso --help");
        assert_eq!(ayuda_de(&args(&["curso", "mantenimiento", "comprueba", "x"])), "cargo curso ayuda comprueba");
    }

    #[test]
    fn la_ayuda_de_quien_aprende_no_lista_las_de_mantenimiento() {
        let texto = Cli::command().render_help().to_string();
        for orden in ["comprueba", "navegador", "ortografia", "ciclo", "mide", "graficas", "fija-iniciales"] {
            assert!(
                !texto.contains(&format!("  {orden} ")),
                "«{orden}» aparece en la ayuda de quien aprende:\n{texto}"
            );
        }
        assert!(texto.contains("cargo curso mantenimiento --help"), "{texto}");
    }
}
