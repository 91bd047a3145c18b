//! `cargo curso`: la herramienta del curso, en español.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{ArgAction, Parser, Subcommand};

use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use curso::practica::{self, Estado};
use curso::{comprobaciones, ejercicios, iniciales, libro, servidor, verificacion};

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
    /// Lista los ejercicios con su estado y tu progreso
    #[command(help_template = PLANTILLA)]
    Lista,
    /// Prueba un ejercicio (por defecto, el siguiente pendiente) y resume el resultado
    #[command(help_template = PLANTILLA)]
    Verifica {
        /// El nombre del ejercicio (míralo con `cargo curso lista`)
        #[arg(value_name = "EJERCICIO")]
        ejercicio: Option<String>,
    },
    /// Vuelve a probar el ejercicio actual cada vez que guardas; pasa al siguiente cuando lo superas
    #[command(help_template = PLANTILLA, next_help_heading = "Opciones")]
    Vigila {
        /// Sin vigilar archivos: pulsa Enter para volver a probar
        #[arg(long)]
        manual: bool,
    },
    /// Muestra las pistas de un ejercicio (por defecto, el siguiente pendiente)
    #[command(help_template = PLANTILLA)]
    Pista {
        /// El nombre del ejercicio
        #[arg(value_name = "EJERCICIO")]
        ejercicio: Option<String>,
    },
    /// Dice dónde está la solución de un ejercicio que ya superaste y cómo ejecutarla
    #[command(help_template = PLANTILLA, next_help_heading = "Opciones")]
    Solucion {
        /// El nombre del ejercicio
        #[arg(value_name = "EJERCICIO")]
        ejercicio: String,
        /// Muéstrala aunque no hayas superado el ejercicio (para quien enseña)
        #[arg(long)]
        mostrar: bool,
    },
    /// Devuelve un ejercicio a su código inicial (guarda antes una copia del tuyo)
    #[command(help_template = PLANTILLA, next_help_heading = "Opciones")]
    Reinicia {
        /// El nombre del ejercicio
        #[arg(value_name = "EJERCICIO")]
        ejercicio: String,
        /// No preguntes: responde que sí
        #[arg(long)]
        si: bool,
    },
    /// Comprueba todo el curso: libro, ejercicios y soluciones (para quien lo mantiene)
    #[command(help_template = PLANTILLA, next_help_heading = "Opciones")]
    Comprueba {
        /// Verifica solo los ejercicios de este capítulo (por ejemplo, 06-hilos-verdes)
        #[arg(long, value_name = "CAPITULO")]
        capitulo: Option<String>,
    },
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
    },
    /// Vuelve a dibujar las gráficas del libro a partir de los resultados guardados en las lecciones
    #[command(help_template = PLANTILLA)]
    Graficas,
    /// Vuelve a fijar el código inicial de los ejercicios (para quien mantiene el curso)
    #[command(name = "fija-iniciales", help_template = PLANTILLA)]
    FijaIniciales,
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
            let estados = practica::estados(&raiz, &lista);
            let mut capitulo = "";
            for (e, estado) in lista.iter().zip(&estados) {
                if e.capitulo != capitulo {
                    capitulo = &e.capitulo;
                    println!("\nCapítulo {capitulo}  (cargo test -p {})", e.paquete());
                }
                let compilar = if e.compilar { "  [haz que compile]" } else { "" };
                println!("  {} {:<14} {:<16} {}{compilar}", estado.marca(), estado.etiqueta(), e.nombre, e.titulo);
            }
            let hechos = estados.iter().filter(|e| **e == Estado::Hecho).count();
            println!("\nProgreso: {}", practica::barra(hechos, lista.len()));
            match siguiente(&estados) {
                Some(i) => println!("Siguiente: cargo curso verifica {}", lista[i].nombre),
                None => println!("¡Has terminado todos los ejercicios!"),
            }
            Ok(())
        }
        Orden::Verifica { ejercicio } => {
            let lista = ejercicios::cargar(&raiz)?;
            let e = match ejercicio {
                Some(n) => buscar(&lista, &n)?,
                None => match siguiente(&practica::estados(&raiz, &lista)) {
                    Some(i) => &lista[i],
                    None => {
                        println!("¡Has terminado todos los ejercicios! Míralos con `cargo curso lista`.");
                        return Ok(());
                    }
                },
            };
            let r = practica::verificar(&raiz, &lista, e)?;
            practica::anotar(&raiz, e, r.paso)?;
            print!("{}", r.informe);
            if r.paso {
                match siguiente(&practica::estados(&raiz, &lista)) {
                    Some(i) => println!("Siguiente: «{}» ({}).", lista[i].nombre, lista[i].titulo),
                    None => println!("¡Has terminado todos los ejercicios!"),
                }
                Ok(())
            } else {
                Err(format!("«{}» todavía no pasa sus pruebas", e.nombre))
            }
        }
        Orden::Vigila { manual } => vigilar(&raiz, manual),
        Orden::Pista { ejercicio } => {
            let lista = ejercicios::cargar(&raiz)?;
            let e = match ejercicio {
                Some(n) => buscar(&lista, &n)?,
                None => match siguiente(&practica::estados(&raiz, &lista)) {
                    Some(i) => &lista[i],
                    None => {
                        return Err("no te queda ningún ejercicio pendiente; di cuál: cargo curso pista NOMBRE".into());
                    }
                },
            };
            mostrar_pistas(e);
            Ok(())
        }
        Orden::Solucion { ejercicio, mostrar } => {
            let lista = ejercicios::cargar(&raiz)?;
            let e = buscar(&lista, &ejercicio)?;
            let i = lista.iter().position(|x| x.nombre == e.nombre).unwrap();
            let hecho = practica::estados(&raiz, &lista)[i] == Estado::Hecho;
            if !hecho && !mostrar {
                return Err(format!(
                    "todavía no has superado «{}». Prueba antes `cargo curso pista {}`; si aun así quieres \
                     verla: cargo curso solucion {} --mostrar",
                    e.nombre, e.nombre, e.nombre
                ));
            }
            println!("La solución de «{}» está en {}", e.nombre, e.carpeta_solucion().join(&e.archivo).display());
            println!("Ejecútala:        cargo run -p {}", e.paquete_solucion());
            println!("Sus pruebas:      cargo test -p {}", e.paquete_solucion());
            if !e.incorrectas.is_empty() {
                let rutas: Vec<String> =
                    e.incorrectas.iter().map(|i| e.carpeta_solucion().join(i).display().to_string()).collect();
                println!("Y una respuesta que parece buena pero no lo es: {}", rutas.join(", "));
            }
            Ok(())
        }
        Orden::Reinicia { ejercicio, si } => {
            let lista = ejercicios::cargar(&raiz)?;
            let e = buscar(&lista, &ejercicio)?;
            reiniciar(&raiz, e, si)
        }
        Orden::Navegador { capturas } => navegador(&raiz, &capturas),
        Orden::Ortografia => {
            // Antes de fiarse del resultado: ¿de verdad reconoce errores?
            let vacio = Default::default();
            let prueba = curso::ortografia::desconocidas("la programasion concurrente", &vacio)?;
            if !prueba.contains("programasion") {
                return Err(
                    "hunspell no marca «programasion»: ¿está instalado el diccionario es_ES (hunspell-es)?".into()
                );
            }
            let problemas = curso::ortografia::comprobar(&raiz)?;
            if problemas.is_empty() {
                println!("Sin faltas de ortografía.");
                Ok(())
            } else {
                Err(format!(
                    "palabras que no reconozco (corrígelas o, si son correctas, añádelas a {}):\n- {}",
                    curso::ortografia::DICCIONARIO,
                    problemas.join("\n- ")
                ))
            }
        }
        Orden::Ciclo { sin_frio } => {
            let (medidas, costes) = curso::ciclo::medir(&raiz, !sin_frio, |paso| eprintln!("… {paso}"))?;
            println!("| medida | segundos | objetivo |\n|---|---|---|");
            for m in &medidas {
                let marca = if m.segundos <= m.objetivo { "✔" } else { "✘" };
                println!("| {} | {:.2} | {marca} < {} |", m.que, m.segundos, m.objetivo);
            }
            if !costes.is_empty() {
                println!(
                    "\n| dependencia directa | la usan | paquetes que solo trae ella | segundos de compilación (CPU) |"
                );
                println!("|---|---|---|---|");
                for c in &costes {
                    let usan = if c.usada_por.len() > 3 {
                        format!("{} paquetes", c.usada_por.len())
                    } else {
                        c.usada_por.join(", ")
                    };
                    println!("| {} | {usan} | {} | {:.1} |", c.dependencia, c.paquetes, c.segundos);
                }
            }
            Ok(())
        }
        Orden::Mide { rapido, capitulo } => {
            let r = curso::mediciones::medir(&raiz, rapido, capitulo.as_deref(), |paso| eprintln!("… {paso}"))?;
            println!("| orden | segundos | bien |\n|---|---|---|");
            for e in &r.ordenes {
                println!("| `{}` | {:.1} | {} |", e.ejecutada, e.segundos, if e.correcta { "✔" } else { "✘" });
            }
            println!();
            for d in r.datos.iter().filter(|d| d.aqui.is_some()) {
                println!(
                    "{} (en el libro: {})\n    aquí: {}",
                    d.que,
                    d.referencia.join(", "),
                    d.aqui.as_deref().unwrap_or_default()
                );
            }
            println!("\nResultados en target/mediciones/{}/resultados.json ({:.0} s en total).", r.modo, r.segundos);
            if !r.problemas.is_empty() {
                return Err(format!("{} problemas:\n- {}", r.problemas.len(), r.problemas.join("\n- ")));
            }
            if !rapido && capitulo.is_none() {
                curso::mediciones::dibujar(&raiz, None, |paso| eprintln!("… {paso}"))?;
                println!("Gráficas dibujadas de nuevo en book/graficas/.");
            }
            Ok(())
        }
        Orden::Graficas => {
            let hechas = curso::mediciones::dibujar(&raiz, None, |paso| eprintln!("… {paso}"))?;
            println!("{} gráficas dibujadas de nuevo en book/graficas/.", hechas.len());
            Ok(())
        }
        Orden::FijaIniciales => {
            let lista = ejercicios::cargar(&raiz)?;
            let n = iniciales::fijar(&raiz, &lista)?;
            println!("Fijado el código inicial de {n} ejercicios en {}", iniciales::INICIALES);
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

/// La ruta base del sitio en la prueba del navegador, como la de GitHub Pages.
const BASE_DE_PRUEBA: &str = "/curso-async/";

fn navegador(raiz: &Path, capturas: &Path) -> Result<(), String> {
    let guion = raiz.join("curso/js/navegador.mjs");
    if !raiz.join("curso/js/node_modules/playwright-core").is_dir() {
        return Err("falta playwright-core: ejecuta `npm ci --prefix curso/js` (necesita Node.js)".into());
    }
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    if !Path::new(&chromium).is_file() {
        return Err(format!(
            "no encuentro Chromium en {chromium}; instálalo (en Debian: apt-get install chromium) o dime dónde con CHROMIUM=ruta"
        ));
    }
    // Como en el flujo de Pages: el sitio vive bajo una ruta base.
    // SAFETY: todavía no hay otros hilos.
    unsafe { std::env::set_var("MDBOOK_OUTPUT__HTML__SITE_URL", BASE_DE_PRUEBA) };
    let destino = raiz.join("target/libro-navegador");
    let hecho = libro::construir(raiz, Some(&destino))?;
    if hecho.errores + hecho.avisos > 0 {
        return Err(format!("el libro se construyó con {} errores y {} avisos", hecho.errores, hecho.avisos));
    }
    let servidor = servidor::escuchar(0)?;
    let puerto = servidor.server_addr().to_ip().map(|a| a.port()).ok_or("el servidor no tiene puerto")?;
    let carpeta = destino.clone();
    std::thread::spawn(move || servidor::atender(servidor, &carpeta, BASE_DE_PRUEBA));
    let url = format!("http://127.0.0.1:{puerto}{BASE_DE_PRUEBA}");
    let capturas = raiz.join(capturas);
    let estado = std::process::Command::new("node")
        .arg(&guion)
        .arg(&url)
        .arg(&destino)
        .arg(&capturas)
        .env("CHROMIUM", &chromium)
        .status()
        .map_err(|e| format!("no puedo ejecutar node: {e}; instala Node.js"))?;
    if estado.success() {
        println!("Capturas en {}", capturas.display());
        Ok(())
    } else {
        Err("el libro tiene problemas en el navegador (arriba la lista)".into())
    }
}

/// El primer ejercicio, en orden, que no está hecho.
fn siguiente(estados: &[Estado]) -> Option<usize> {
    estados.iter().position(|e| *e != Estado::Hecho)
}

fn mostrar_pistas(e: &ejercicios::Ejercicio) {
    println!("{} — {}", e.nombre, e.titulo);
    println!("Archivo: {}", e.carpeta().join(&e.archivo).display());
    for (i, pista) in e.pistas.iter().enumerate() {
        println!("Pista {}: {pista}", i + 1);
    }
}

/// Pregunta sí o no; sin respuesta (fin de la entrada), es que no.
fn confirmar(pregunta: &str) -> bool {
    print!("{pregunta} [s/N] ");
    let _ = std::io::stdout().flush();
    let mut linea = String::new();
    match std::io::stdin().lock().read_line(&mut linea) {
        Ok(0) | Err(_) => {
            println!();
            false
        }
        Ok(_) => matches!(linea.trim().to_lowercase().as_str(), "s" | "si" | "sí" | "y" | "yes"),
    }
}

fn reiniciar(raiz: &Path, e: &ejercicios::Ejercicio, si: bool) -> Result<(), String> {
    let hashes = iniciales::cargar(raiz)?;
    if iniciales::sin_tocar(raiz, e, &hashes) {
        println!("«{}» ya tiene su código inicial; no hay nada que reiniciar.", e.nombre);
        return Ok(());
    }
    let original = iniciales::contenido(raiz, e, &hashes)?;
    let ruta = raiz.join(e.carpeta()).join(&e.archivo);
    let copias = raiz.join(practica::CARPETA).join("copias");
    let segundos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let copia = copias.join(format!("{}-{segundos}.rs", e.nombre));
    let relativa = copia.strip_prefix(raiz).unwrap_or(&copia).display().to_string();
    if !si
        && !confirmar(&format!("¿Devuelvo «{}» a su código inicial? Tu versión se guardará en {relativa}.", e.nombre))
    {
        println!("No he cambiado nada.");
        return Ok(());
    }
    std::fs::create_dir_all(&copias).map_err(|err| format!("no puedo crear {}: {err}", copias.display()))?;
    if ruta.exists() {
        std::fs::copy(&ruta, &copia).map_err(|err| format!("no puedo guardar la copia: {err}; no he cambiado nada"))?;
    }
    std::fs::write(&ruta, original).map_err(|err| format!("no puedo escribir {}: {err}", ruta.display()))?;
    practica::olvidar(raiz, e)?;
    println!("«{}» vuelve a su código inicial. Tu versión está en {relativa}.", e.nombre);
    Ok(())
}

enum Evento {
    Cambio,
    Linea(String),
    Fin,
}

/// El modo vigilancia: prueba, espera a que guardes (o a una orden), repite.
fn vigilar(raiz: &Path, manual: bool) -> Result<(), String> {
    let lista = ejercicios::cargar(raiz)?;
    let (tx, rx) = mpsc::channel();
    let tx_teclado = tx.clone();
    std::thread::spawn(move || {
        for linea in std::io::stdin().lock().lines() {
            let Ok(linea) = linea else { break };
            if tx_teclado.send(Evento::Linea(linea.trim().to_lowercase())).is_err() {
                return;
            }
        }
        let _ = tx_teclado.send(Evento::Fin);
    });
    let _vigilante = if manual {
        None
    } else {
        match vigilante(raiz, tx) {
            Ok(v) => Some(v),
            Err(err) => {
                println!("No puedo vigilar los archivos aquí ({err}). Sigo en modo manual.");
                None
            }
        }
    };
    let automatico = _vigilante.is_some();
    let Some(mut actual) = siguiente(&practica::estados(raiz, &lista)) else {
        println!("¡Has terminado todos los ejercicios!");
        return Ok(());
    };
    loop {
        let e = &lista[actual];
        println!("\n──────── {} ────────", e.nombre);
        let r = practica::verificar(raiz, &lista, e)?;
        practica::anotar(raiz, e, r.paso)?;
        print!("{}", r.informe);
        if r.paso {
            match siguiente(&practica::estados(raiz, &lista)) {
                Some(i) => {
                    println!("Superado. Vamos con «{}»: {}", lista[i].nombre, lista[i].titulo);
                    actual = i;
                    continue;
                }
                None => {
                    println!("¡Has terminado todos los ejercicios!");
                    return Ok(());
                }
            }
        }
        if automatico {
            println!(
                "\nGuarda el archivo para volver a probar. p+Enter: pista · l+Enter: lista · q+Enter: salir · Enter: probar ya"
            );
        } else {
            println!("\nEnter: volver a probar · p+Enter: pista · l+Enter: lista · q+Enter: salir");
        }
        loop {
            match rx.recv() {
                Ok(Evento::Cambio) => {
                    // Un guardado suele llegar como varios avisos seguidos.
                    while rx.recv_timeout(Duration::from_millis(300)).is_ok_and(|ev| matches!(ev, Evento::Cambio)) {}
                    break;
                }
                Ok(Evento::Linea(l)) if l.is_empty() => break,
                Ok(Evento::Linea(l)) if l == "p" => mostrar_pistas(e),
                Ok(Evento::Linea(l)) if l == "l" => {
                    let estados = practica::estados(raiz, &lista);
                    for (x, estado) in lista.iter().zip(&estados) {
                        println!("  {} {:<14} {}", estado.marca(), estado.etiqueta(), x.nombre);
                    }
                    let hechos = estados.iter().filter(|e| **e == Estado::Hecho).count();
                    println!("Progreso: {}", practica::barra(hechos, lista.len()));
                }
                Ok(Evento::Linea(l)) if l == "q" => return Ok(()),
                Ok(Evento::Linea(l)) => println!("No entiendo «{l}». Usa p, l, q o Enter."),
                Ok(Evento::Fin) | Err(_) => return Ok(()),
            }
        }
    }
}

fn vigilante(raiz: &Path, tx: mpsc::Sender<Evento>) -> notify::Result<notify::RecommendedWatcher> {
    use notify::{EventKind, RecursiveMode, Watcher};
    let mut w = notify::recommended_watcher(move |ev: notify::Result<notify::Event>| {
        if let Ok(ev) = ev {
            let cambia = matches!(ev.kind, EventKind::Modify(_) | EventKind::Create(_));
            if cambia && ev.paths.iter().any(|p| p.extension().is_some_and(|x| x == "rs")) {
                let _ = tx.send(Evento::Cambio);
            }
        }
    })?;
    w.watch(&raiz.join("exercises"), RecursiveMode::Recursive)?;
    Ok(w)
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
