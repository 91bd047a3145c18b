//! `cargo curso`: la herramienta del curso, en español.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{ArgAction, Parser, Subcommand};

use curso::{comprobaciones, ejercicios, libro, servidor, verificacion};

const PLANTILLA: &str = "{about}\n\nUso: {usage}\n\n{all-args}";

#[derive(Parser)]
#[command(
    name = "cargo curso",
    bin_name = "cargo curso",
    about = "La herramienta del curso de Rust asíncrono.",
    help_template = PLANTILLA,
    disable_help_flag = true,
    disable_help_subcommand = true,
    disable_version_flag = true,
    subcommand_help_heading = "Órdenes",
    next_help_heading = "Opciones",
    subcommand_value_name = "ORDEN"
)]
struct Cli {
    #[command(subcommand)]
    orden: Orden,
    /// Muestra esta ayuda
    #[arg(short = 'h', long = "help", action = ArgAction::Help, global = true)]
    ayuda: Option<bool>,
}

#[derive(Subcommand)]
enum Orden {
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
    /// Lista los ejercicios, capítulo a capítulo
    #[command(help_template = PLANTILLA)]
    Lista,
    /// Muestra las pistas de un ejercicio
    #[command(help_template = PLANTILLA)]
    Pista {
        /// El nombre del ejercicio (míralo con `cargo curso lista`)
        #[arg(value_name = "EJERCICIO")]
        ejercicio: String,
    },
    /// Comprueba todo el curso: libro, ejercicios y soluciones (para quien lo mantiene)
    #[command(help_template = PLANTILLA, next_help_heading = "Opciones")]
    Comprueba {
        /// Verifica solo los ejercicios de este capítulo (por ejemplo, 06-hilos-verdes)
        #[arg(long, value_name = "CAPITULO")]
        capitulo: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse_from(argumentos()) {
        Ok(cli) => cli,
        Err(e) => return error_de_argumentos(e),
    };
    match ejecutar(cli.orden) {
        Ok(()) => ExitCode::SUCCESS,
        Err(mensaje) => {
            eprintln!("error: {mensaje}");
            ExitCode::FAILURE
        }
    }
}

/// `cargo curso x` llega como `curso x`; `cargo run -p curso -- curso x` también.
fn argumentos() -> Vec<String> {
    let mut args: Vec<String> = std::env::args().collect();
    if args.get(1).is_some_and(|a| a == "curso") {
        args.remove(1);
    }
    args
}

fn ejecutar(orden: Orden) -> Result<(), String> {
    let raiz = curso::raiz();
    match orden {
        Orden::Libro { solo_construir, puerto, destino } => {
            let hecho = libro::construir(&raiz, destino.as_deref())?;
            if hecho.errores + hecho.avisos > 0 {
                return Err(format!(
                    "el libro se construyó con {} errores y {} avisos (arriba los tienes)",
                    hecho.errores, hecho.avisos
                ));
            }
            println!("Libro construido en {}", hecho.destino.display());
            if solo_construir {
                return Ok(());
            }
            servidor::servir(&hecho.destino, puerto)
        }
        Orden::Lista => {
            let lista = ejercicios::cargar(&raiz)?;
            let mut capitulo = "";
            for e in &lista {
                if e.capitulo != capitulo {
                    capitulo = &e.capitulo;
                    println!("\nCapítulo {capitulo}  (cargo test -p {})", e.paquete());
                }
                let marca = if e.compilar { "  [haz que compile]" } else { "" };
                println!("  {:<16} {}{marca}", e.nombre, e.titulo);
            }
            Ok(())
        }
        Orden::Pista { ejercicio } => {
            let lista = ejercicios::cargar(&raiz)?;
            let e = buscar(&lista, &ejercicio)?;
            println!("{} — {}", e.nombre, e.titulo);
            println!("Archivo: {}", e.carpeta().join(&e.archivo).display());
            for (i, pista) in e.pistas.iter().enumerate() {
                println!("Pista {}: {pista}", i + 1);
            }
            Ok(())
        }
        Orden::Comprueba { capitulo } => {
            let mut problemas = Vec::new();
            let hecho = libro::construir(&raiz, None)?;
            if hecho.errores + hecho.avisos > 0 {
                problemas.push(format!("el libro tiene {} errores y {} avisos", hecho.errores, hecho.avisos));
            }
            problemas.extend(comprobaciones::comprobar_libro(&raiz));
            let mut lista = ejercicios::cargar(&raiz)?;
            if capitulo.is_none() {
                problemas.extend(ejercicios::carpetas_sin_ejercicios(&raiz, &lista));
            }
            if let Some(c) = &capitulo {
                lista.retain(|e| &e.capitulo == c);
                if lista.is_empty() {
                    return Err(format!("no hay ejercicios del capítulo «{c}» en {}", ejercicios::LISTA));
                }
            }
            let informe = verificacion::verificar(&raiz, &lista);
            for linea in &informe.resumen {
                println!("  {linea}");
            }
            problemas.extend(informe.problemas);
            if problemas.is_empty() {
                println!("Todo en orden.");
                Ok(())
            } else {
                Err(format!("{} problemas:\n- {}", problemas.len(), problemas.join("\n- ")))
            }
        }
    }
}

/// Busca un ejercicio por nombre; si no existe, sugiere los más parecidos.
fn buscar<'a>(lista: &'a [ejercicios::Ejercicio], nombre: &str) -> Result<&'a ejercicios::Ejercicio, String> {
    if let Some(e) = lista.iter().find(|e| e.nombre == nombre) {
        return Ok(e);
    }
    let mut parecidos: Vec<(f64, &str)> = lista
        .iter()
        .map(|e| (strsim::normalized_damerau_levenshtein(nombre, &e.nombre), e.nombre.as_str()))
        .filter(|(s, _)| *s > 0.4)
        .collect();
    parecidos.sort_by(|a, b| b.0.total_cmp(&a.0));
    let sugerencia = match parecidos.first() {
        Some((_, n)) => format!("; ¿quisiste decir «{n}»?"),
        None => "; míralos con `cargo curso lista`".to_string(),
    };
    Err(format!("no hay ningún ejercicio llamado «{nombre}»{sugerencia}"))
}

/// Los errores de clap, en español y en una línea.
fn error_de_argumentos(e: clap::Error) -> ExitCode {
    let contexto = |k: ContextKind| match e.get(k) {
        Some(ContextValue::String(s)) => s.clone(),
        Some(ContextValue::Strings(v)) => v.join(", "),
        Some(otro) => otro.to_string(),
        None => String::new(),
    };
    let sugerencia = match contexto(ContextKind::SuggestedSubcommand) {
        s if s.is_empty() => String::new(),
        s => format!("; ¿quisiste decir «{s}»?"),
    };
    let mensaje = match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            print!("{}", e.render());
            return ExitCode::SUCCESS;
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand => {
            eprint!("{}", e.render());
            return ExitCode::from(2);
        }
        ErrorKind::InvalidSubcommand => {
            format!("«{}» no es una orden de cargo curso{sugerencia}", contexto(ContextKind::InvalidSubcommand))
        }
        ErrorKind::UnknownArgument => format!("opción desconocida «{}»", contexto(ContextKind::InvalidArg)),
        ErrorKind::MissingRequiredArgument => format!("falta {}", contexto(ContextKind::InvalidArg)),
        ErrorKind::InvalidValue | ErrorKind::ValueValidation => format!(
            "«{}» no es un valor válido para {}",
            contexto(ContextKind::InvalidValue),
            contexto(ContextKind::InvalidArg)
        ),
        ErrorKind::TooManyValues | ErrorKind::ArgumentConflict => {
            format!("sobra «{}»", contexto(ContextKind::InvalidValue))
        }
        _ => "argumentos no válidos".to_string(),
    };
    eprintln!("error: {mensaje}; prueba `cargo curso --help`");
    ExitCode::from(2)
}
