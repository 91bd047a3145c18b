//! Las opciones de línea de órdenes de las lecciones, en español.
//!
//! Cada programa de `lessons/` (y la herramienta `curso/`) describe sus
//! opciones con [`clap`] y su `#[derive(Parser)]`; este crate pone lo que
//! todos comparten y que clap trae en inglés:
//!
//! - [`lee`] y [`de_la_linea_de_ordenes`]: leen las opciones; un error sale
//!   en una línea en español («opción desconocida «--lento»») y termina el
//!   programa con código 2, sin pánico. `--help` (o `-h`) muestra la ayuda
//!   en español y termina con código 0.
//! - [`entre`]: un número entero con su rango, con el error en español.
//! - [`en_espanol`] y [`mensaje_de_error`]: la traducción de los pocos
//!   textos fijos de clap y de sus errores; `curso` usa las mismas.
//!
//! `--rapido`, la opción que usan las pruebas para correr con parámetros
//! pequeños, se declara en cada lección como un `bool`; los valores que
//! cambia llevan `default_value_if("rapido", "true", ...)`. Un valor dado a
//! mano gana siempre a `--rapido`.
//!
//! ```
//! use opciones::clap::{self, Parser};
//!
//! #[derive(Parser, Debug)]
//! #[command(name = "ejemplo", about = "Un programa de ejemplo")]
//! struct Opciones {
//!     /// Pocas peticiones, para las pruebas
//!     #[arg(long)]
//!     rapido: bool,
//!     /// Cuántas peticiones
//!     #[arg(long, value_name = "N", default_value = "100", default_value_if("rapido", "true", "10"),
//!           value_parser = opciones::entre(1u32, 1_000))]
//!     peticiones: u32,
//! }
//!
//! let o: Opciones = opciones::lee(["--rapido"]).unwrap();
//! assert_eq!(o.peticiones, 10);
//! let o: Opciones = opciones::lee(["--peticiones", "7", "--rapido"]).unwrap();
//! assert_eq!(o.peticiones, 7);
//! let e = opciones::lee::<Opciones>(["--peticiones", "0"]).unwrap_err();
//! assert_eq!(e, "--peticiones debe estar entre 1 y 1000");
//! let e = opciones::lee::<Opciones>(["--lento"]).unwrap_err();
//! assert!(e.starts_with("opción desconocida «--lento»"), "{e}");
//! ```
//!
//! Lo usan todas las lecciones que aceptan opciones (01 a 19).

use std::ffi::OsString;
use std::fmt::Display;
use std::str::FromStr;

pub use clap;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, ArgAction, Command, CommandFactory, FromArgMatches};

/// La plantilla de ayuda en español: descripción, uso y opciones.
pub const PLANTILLA: &str = "{about}\n\nUso: {usage}\n\n{all-args}{after-help}";

/// Lo poco que clap escribe siempre en inglés, en español.
pub fn en_espanol(texto: &str) -> String {
    texto
        .replace("[OPTIONS]", "[OPCIONES]")
        .replace("<COMMAND>", "<ORDEN>")
        .replace("[default: ", "[por defecto: ")
        .replace("[possible values: ", "[valores posibles: ")
        .replace("Arguments:", "Argumentos:")
        .replace("Options:", "Opciones:")
        .replace("Commands:", "Órdenes:")
        .replace("Usage:", "Uso:")
}

/// Un error de clap en una línea en español, sin el «error: » del principio.
/// `programa` es el nombre con el que se invoca (`"cargo curso"`), para los
/// mensajes de órdenes desconocidas.
///
/// Para `--help` y las demás salidas que no son errores, devuelve el texto
/// que clap quiere mostrar, ya traducido con [`en_espanol`].
pub fn mensaje_de_error(e: &clap::Error, programa: &str) -> String {
    let contexto = |k: ContextKind| match e.get(k) {
        Some(ContextValue::String(s)) => s.clone(),
        Some(ContextValue::Strings(v)) => v.join(", "),
        Some(otro) => otro.to_string(),
        None => String::new(),
    };
    let sugerencia = |k: ContextKind| match contexto(k) {
        s if s.is_empty() => String::new(),
        s => format!("; ¿quisiste decir «{s}»?"),
    };
    // «--peticiones <N>» se nombra «--peticiones».
    let opcion = || contexto(ContextKind::InvalidArg).split(' ').next().unwrap_or_default().to_string();
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        | ErrorKind::MissingSubcommand => en_espanol(&e.render().to_string()),
        ErrorKind::InvalidSubcommand => format!(
            "«{}» no es una orden de {programa}{}",
            contexto(ContextKind::InvalidSubcommand),
            sugerencia(ContextKind::SuggestedSubcommand)
        ),
        ErrorKind::UnknownArgument => {
            let arg = contexto(ContextKind::InvalidArg);
            if arg.starts_with('-') {
                format!("opción desconocida «{arg}»{}", sugerencia(ContextKind::SuggestedArg))
            } else {
                format!("sobra el argumento «{arg}»: esta orden no lo espera")
            }
        }
        ErrorKind::MissingRequiredArgument => format!("falta {}", contexto(ContextKind::InvalidArg)),
        ErrorKind::InvalidValue if contexto(ContextKind::InvalidValue).is_empty() => {
            format!("falta el valor después de {}", opcion())
        }
        // El motivo viene de un analizador como `entre`: ya está en español.
        ErrorKind::ValueValidation if std::error::Error::source(e).is_some() => {
            format!("{} {}", opcion(), std::error::Error::source(e).map(|s| s.to_string()).unwrap_or_default())
        }
        ErrorKind::InvalidValue | ErrorKind::ValueValidation => {
            let validos = contexto(ContextKind::ValidValue);
            let validos = if validos.is_empty() { String::new() } else { format!(" (valen: {validos})") };
            format!("«{}» no es un valor válido para {}{validos}", contexto(ContextKind::InvalidValue), opcion())
        }
        ErrorKind::ArgumentConflict => format!(
            "{} no se puede usar junto con {}",
            contexto(ContextKind::InvalidArg),
            contexto(ContextKind::PriorArg)
        ),
        ErrorKind::TooManyValues => format!("demasiados valores para {}", contexto(ContextKind::InvalidArg)),
        _ => "argumentos no válidos".to_string(),
    }
}

/// El `Command` de `T` con la ayuda en español: la plantilla [`PLANTILLA`] y
/// un `-h, --help` que dice «Muestra esta ayuda».
pub fn orden<T: CommandFactory>() -> Command {
    T::command()
        .help_template(PLANTILLA)
        .disable_help_flag(true)
        .disable_version_flag(true)
        .arg(Arg::new("ayuda").short('h').long("help").action(ArgAction::Help).help("Muestra esta ayuda"))
}

fn interpreta<T>(
    programa: Option<String>,
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
) -> Result<T, clap::Error>
where
    T: CommandFactory + FromArgMatches,
{
    let mut orden = orden::<T>().no_binary_name(true);
    if let Some(programa) = programa {
        orden = orden.bin_name(programa);
    }
    let mut coincidencias = orden.try_get_matches_from_mut(args)?;
    T::from_arg_matches_mut(&mut coincidencias).map_err(|e| e.format(&mut orden))
}

/// Lee las opciones de `args` (sin el nombre del programa). El error es una
/// línea en español, sin «error: » delante; con `--help`, el error es la ayuda.
pub fn lee<T>(args: impl IntoIterator<Item = impl Into<OsString> + Clone>) -> Result<T, String>
where
    T: CommandFactory + FromArgMatches,
{
    interpreta(None, args).map_err(|e| mensaje_de_error(&e, T::command().get_name()))
}

/// Lee las opciones de la línea de órdenes del programa. Si no valen, escribe
/// `error: ...` en español y termina con código 2; con `--help`, escribe la
/// ayuda y termina con código 0.
pub fn de_la_linea_de_ordenes<T: CommandFactory + FromArgMatches>() -> T {
    // La ayuda nombra el programa como se llama el ejecutable (`eco-bloqueante`...).
    let programa = std::env::args_os()
        .next()
        .and_then(|a| std::path::Path::new(&a).file_name().map(|n| n.to_string_lossy().into_owned()));
    match interpreta(programa, std::env::args_os().skip(1)) {
        Ok(opciones) => opciones,
        Err(e) if !e.use_stderr() => {
            print!("{}", mensaje_de_error(&e, T::command().get_name()));
            std::process::exit(0);
        }
        Err(e) => {
            let programa = T::command().get_name().to_string();
            eprintln!("error: {}\n(mira las opciones con --help)", mensaje_de_error(&e, &programa).trim_end());
            std::process::exit(2);
        }
    }
}

/// Un analizador de valores para `#[arg(value_parser = ...)]`: un número
/// entre `minimo` y `maximo` (ambos incluidos), con el error en español.
///
/// El tipo de los límites tiene que ser el del campo: clap solo lo comprueba
/// al leer la opción, con un pánico. Con literales, dilo con un sufijo:
/// `entre(1usize, 64)` para un campo `usize` (sin sufijo serían `i32`).
pub fn entre<T>(minimo: T, maximo: T) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: FromStr + PartialOrd + Display + Copy + Send + Sync + 'static,
{
    move |texto: &str| {
        let n: T = texto.parse().map_err(|_| format!("espera un número entero, no «{texto}»"))?;
        if n < minimo || n > maximo {
            return Err(format!("debe estar entre {minimo} y {maximo}"));
        }
        Ok(n)
    }
}

/// Un analizador de valores para un número de `T` sin rango, con el error en español.
pub fn numero<T>(texto: &str) -> Result<T, String>
where
    T: FromStr,
{
    texto.parse().map_err(|_| format!("espera un número, no «{texto}»"))
}

#[cfg(test)]
mod pruebas {
    use super::*;
    use clap::Parser;

    /// Una opción de cada tipo.
    #[derive(Parser, Debug, PartialEq)]
    #[command(name = "prueba", about = "Un programa de prueba")]
    struct Prueba {
        /// Poco de todo
        #[arg(long)]
        rapido: bool,
        /// Cuántos hilos
        #[arg(long, value_name = "N", default_value = "4", default_value_if("rapido", "true", "1"),
              value_parser = entre(1usize, 64))]
        hilos: usize,
        /// Dónde escribir
        #[arg(long, value_name = "RUTA")]
        csv: Option<std::path::PathBuf>,
    }

    fn lee_prueba(args: &[&str]) -> Result<Prueba, String> {
        lee(args.iter().copied())
    }

    #[test]
    fn valores_por_defecto_rapido_y_a_mano() {
        assert_eq!(lee_prueba(&[]).unwrap().hilos, 4);
        assert_eq!(lee_prueba(&["--rapido"]).unwrap().hilos, 1);
        assert_eq!(lee_prueba(&["--hilos", "8", "--rapido"]).unwrap().hilos, 8);
        assert_eq!(lee_prueba(&["--rapido", "--hilos=9"]).unwrap().hilos, 9);
    }

    #[test]
    fn los_errores_van_en_espanol_y_en_una_linea() {
        for (args, esperado) in [
            (&["--lento"][..], "opción desconocida «--lento»"),
            (&["--hilo", "3"][..], "opción desconocida «--hilo»; ¿quisiste decir «--hilos»?"),
            (&["--hilos", "0"][..], "--hilos debe estar entre 1 y 64"),
            (&["--hilos", "x"][..], "--hilos espera un número entero, no «x»"),
            (&["--hilos"][..], "falta el valor después de --hilos"),
            (&["suelto"][..], "sobra el argumento «suelto»: esta orden no lo espera"),
        ] {
            assert_eq!(lee_prueba(args).unwrap_err(), esperado, "{args:?}");
        }
    }

    #[test]
    fn la_ayuda_no_tiene_palabras_en_ingles() {
        let ayuda = lee_prueba(&["--help"]).unwrap_err();
        assert!(ayuda.starts_with("Un programa de prueba\n\nUso: prueba [OPCIONES]"), "{ayuda}");
        for palabra in ["Usage", "Options", "OPTIONS", "default:", "Print help"] {
            assert!(!ayuda.contains(palabra), "la ayuda dice «{palabra}»:\n{ayuda}");
        }
        assert!(ayuda.contains("Muestra esta ayuda") && ayuda.contains("[por defecto: 4]"), "{ayuda}");
    }
}
