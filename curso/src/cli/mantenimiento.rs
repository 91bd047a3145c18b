//! `cargo curso mantenimiento ...`: las órdenes de quien mantiene el curso.
//!
//! Las que reescriben archivos versionados (`fija-iniciales`, `graficas`,
//! `mide`) se niegan si esos archivos difieren de `HEAD` (salvo `--forzar`),
//! preguntan antes (salvo `--si`) y dicen qué cambiaron.

use std::path::{Path, PathBuf};

use clap::Subcommand;

use curso::{comprobaciones, ejercicios, iniciales, libro, servidor, verificacion, versionados};

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

pub fn ejecutar(raiz: &Path, orden: Orden) -> Result<(), String> {
    match orden {
        Orden::Comprueba { capitulo, solo_ejercicios, repite } => comprueba(raiz, &capitulo, solo_ejercicios, repite),
        Orden::Navegador { capturas } => navegador(raiz, &capturas),
        Orden::Ortografia => ortografia(raiz),
        Orden::Estilo => estilo(raiz),
        Orden::Ciclo { sin_frio } => ciclo(raiz, sin_frio),
        Orden::Mide { rapido, capitulo, reescritura } => mide(raiz, rapido, capitulo.as_deref(), reescritura),
        Orden::Graficas { reescritura } => graficas(raiz, reescritura),
        Orden::FijaIniciales { reescritura } => fija_iniciales(raiz, reescritura),
        Orden::Preprocesador { nombre, argumentos } => preprocesador(&nombre, &argumentos),
    }
}

/// Antes de reescribir `rutas`: se niega si difieren de `HEAD` (salvo
/// `--forzar`) y pregunta (salvo `--si`). `Ok(false)`: no hay que hacer nada.
fn permitir(raiz: &Path, rutas: &[&str], que: &str, r: Reescritura) -> Result<bool, String> {
    let sucios = versionados::distintos_de_head(raiz, rutas)?;
    if !sucios.is_empty() && !r.forzar {
        return Err(format!(
            "no {que}: estos archivos tienen cambios sin commit y los pisaría:\n  {}\nHaz commit antes (o \
             `git restore` si no los quieres), o repite con --forzar",
            sucios.join("\n  ")
        ));
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
fn contar_cambios(raiz: &Path, rutas: &[&str]) -> Result<(), String> {
    let cambios = versionados::distintos_de_head(raiz, rutas)?;
    if cambios.is_empty() {
        println!("Ningún archivo cambió respecto a HEAD.");
    } else {
        println!("Archivos distintos de HEAD ahora ({}):\n  {}", cambios.len(), cambios.join("\n  "));
    }
    Ok(())
}

fn comprueba(raiz: &Path, capitulos: &[String], solo_ejercicios: bool, repite: u32) -> Result<(), String> {
    let mut problemas = Vec::new();
    if !solo_ejercicios {
        let hecho = libro::construir(raiz, None)?;
        if hecho.errores + hecho.avisos > 0 {
            problemas.push(format!("el libro tiene {} errores y {} avisos", hecho.errores, hecho.avisos));
        }
        problemas.extend(comprobaciones::comprobar_libro(raiz));
    }
    let mut lista = ejercicios::cargar(raiz)?;
    if capitulos.is_empty() {
        problemas.extend(ejercicios::carpetas_sin_ejercicios(raiz, &lista));
    } else {
        if let Some(c) = capitulos.iter().find(|c| !lista.iter().any(|e| &e.capitulo == *c)) {
            return Err(format!("no hay ejercicios del capítulo «{c}» en {}", ejercicios::LISTA));
        }
        lista.retain(|e| capitulos.contains(&e.capitulo));
    }
    // Cada problema, con las veces que salió: uno que sale a veces es una prueba inestable.
    let mut veces: std::collections::BTreeMap<String, u32> = Default::default();
    for vez in 1..=repite.max(1) {
        let informe = verificacion::verificar(raiz, &lista, verificacion::Alcance::Completa);
        if vez == 1 {
            for linea in informe.resumen.iter() {
                println!("  {linea}");
            }
        }
        for linea in &informe.tiempos {
            println!("  [{vez}/{repite}] {linea}");
        }
        for p in informe.problemas {
            *veces.entry(p).or_default() += 1;
        }
    }
    if repite > 1 {
        println!("{} verificaciones: {} problemas distintos.", repite, veces.len());
    }
    problemas
        .extend(veces.into_iter().map(|(p, n)| if repite > 1 { format!("[{n} de {repite} veces] {p}") } else { p }));
    if problemas.is_empty() {
        println!("Todo en orden.");
        Ok(())
    } else {
        Err(format!("{} problemas:\n- {}", problemas.len(), problemas.join("\n- ")))
    }
}

/// `cargo fmt --check` y `cargo clippy -- -D warnings` en todo el espacio de
/// trabajo, salvo los ejercicios de los capítulos con un «haz que compile»:
/// su código inicial no compila a propósito.
fn estilo(raiz: &Path) -> Result<(), String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let lista = ejercicios::cargar(raiz)?;
    let mut sin_compilar: Vec<String> = lista.iter().filter(|e| e.compilar).map(|e| e.paquete()).collect();
    sin_compilar.dedup();
    let correr = |args: Vec<String>| -> Result<(), String> {
        println!("… cargo {}", args.join(" "));
        let estado = std::process::Command::new(&cargo)
            .args(&args)
            .current_dir(raiz)
            .status()
            .map_err(|e| format!("no puedo ejecutar cargo: {e}"))?;
        if estado.success() { Ok(()) } else { Err(format!("`cargo {}` encontró problemas (arriba)", args.join(" "))) }
    };
    correr(["fmt", "--all", "--check"].map(String::from).to_vec())?;
    let mut clippy: Vec<String> = ["clippy", "--workspace", "--all-targets", "--quiet"].map(String::from).to_vec();
    for p in &sin_compilar {
        clippy.extend(["--exclude".to_string(), p.clone()]);
    }
    clippy.extend(["--", "-D", "warnings"].map(String::from));
    correr(clippy)?;
    println!("Formato y clippy en orden (sin {}: su código inicial no compila a propósito).", sin_compilar.join(", "));
    Ok(())
}

fn ortografia(raiz: &Path) -> Result<(), String> {
    // Antes de fiarse del resultado: ¿de verdad reconoce errores?
    let vacio = Default::default();
    let prueba = curso::ortografia::desconocidas("la programasion concurrente", &vacio)?;
    if !prueba.contains("programasion") {
        return Err("hunspell no marca «programasion»: ¿está instalado el diccionario es_ES (hunspell-es)?".into());
    }
    let problemas = curso::ortografia::comprobar(raiz)?;
    if problemas.is_empty() {
        println!("Sin faltas de ortografía.");
        return Ok(());
    }
    Err(format!(
        "palabras que no reconozco (corrígelas o, si son correctas, añádelas a {}):\n- {}",
        curso::ortografia::DICCIONARIO,
        problemas.join("\n- ")
    ))
}

fn ciclo(raiz: &Path, sin_frio: bool) -> Result<(), String> {
    let (medidas, costes) = curso::ciclo::medir(raiz, !sin_frio, |paso| eprintln!("… {paso}"))?;
    println!("| medida | segundos | objetivo |\n|---|---|---|");
    for m in &medidas {
        let marca = if m.segundos <= m.objetivo { "✔" } else { "✘" };
        println!("| {} | {:.2} | {marca} < {} |", m.que, m.segundos, m.objetivo);
    }
    if costes.is_empty() {
        return Ok(());
    }
    println!("\n| dependencia directa | la usan | paquetes que solo trae ella | segundos de compilación (CPU) |");
    println!("|---|---|---|---|");
    for c in &costes {
        let usan =
            if c.usada_por.len() > 3 { format!("{} paquetes", c.usada_por.len()) } else { c.usada_por.join(", ") };
        println!("| {} | {usan} | {} | {:.1} |", c.dependencia, c.paquetes, c.segundos);
    }
    Ok(())
}

/// Lo que reescribe una medición completa: los CSV de las lecciones y las gráficas.
const RESULTADOS: &[&str] = &["lessons/*/resultados", "book/graficas"];

fn mide(raiz: &Path, rapido: bool, capitulo: Option<&str>, r: Reescritura) -> Result<(), String> {
    if !rapido && !permitir(raiz, RESULTADOS, "reescribir los resultados y las gráficas del libro", r)? {
        return Ok(());
    }
    let m = curso::mediciones::medir(raiz, rapido, capitulo, |paso| eprintln!("… {paso}"))?;
    println!("| orden | segundos | bien |\n|---|---|---|");
    for e in &m.ordenes {
        println!("| `{}` | {:.1} | {} |", e.ejecutada, e.segundos, if e.correcta { "✔" } else { "✘" });
    }
    println!();
    for d in m.datos.iter().filter(|d| d.aqui.is_some()) {
        println!(
            "{} (en el libro: {})\n    aquí: {}",
            d.que,
            d.referencia.join(", "),
            d.aqui.as_deref().unwrap_or_default()
        );
    }
    println!("\nResultados en target/mediciones/{}/resultados.json ({:.0} s en total).", m.modo, m.segundos);
    if !m.problemas.is_empty() {
        return Err(format!("{} problemas:\n- {}", m.problemas.len(), m.problemas.join("\n- ")));
    }
    if !rapido {
        contar_cambios(raiz, RESULTADOS)?;
    }
    Ok(())
}

fn graficas(raiz: &Path, r: Reescritura) -> Result<(), String> {
    if !permitir(raiz, &["book/graficas"], "volver a dibujar las gráficas de book/graficas/", r)? {
        return Ok(());
    }
    let hechas = curso::mediciones::dibujar(raiz, None, |paso| eprintln!("… {paso}"))?;
    println!("Dibujadas {} gráficas.", hechas.len());
    contar_cambios(raiz, &["book/graficas"])
}

fn fija_iniciales(raiz: &Path, r: Reescritura) -> Result<(), String> {
    let lista = ejercicios::cargar(raiz)?;
    let archivos: Vec<String> = lista.iter().map(|e| e.carpeta().join(&e.archivo).display().to_string()).collect();
    let mut rutas: Vec<&str> = archivos.iter().map(String::as_str).collect();
    rutas.push(iniciales::INICIALES);
    let antes = iniciales::cargar(raiz).unwrap_or_default();
    if !permitir(raiz, &rutas, "fijar como código inicial los archivos de exercises/ tal como están", r)? {
        return Ok(());
    }
    iniciales::fijar(raiz, &lista)?;
    let despues = iniciales::cargar(raiz)?;
    let cambiados: Vec<&str> =
        lista.iter().filter(|e| antes.get(&e.nombre) != despues.get(&e.nombre)).map(|e| e.nombre.as_str()).collect();
    if cambiados.is_empty() {
        println!("{} no cambia: los {} iniciales ya estaban fijados así.", iniciales::INICIALES, lista.len());
    } else {
        println!("Fijado de nuevo el código inicial de {}: {}.", cambiados.len(), cambiados.join(", "));
    }
    Ok(())
}

/// Habla con mdbook por la entrada y la salida estándar. Con `supports`, un
/// código de salida distinto de cero dice «no sirve para ese renderizador».
fn preprocesador(nombre: &str, argumentos: &[String]) -> Result<(), String> {
    let stdout = std::io::stdout();
    if libro::preprocesar(nombre, argumentos, std::io::stdin().lock(), stdout.lock())? {
        Ok(())
    } else {
        std::process::exit(1)
    }
}

/// La ruta base del sitio en la prueba del navegador, como la de GitHub Pages.
const BASE_DE_PRUEBA: &str = "/curso-async/";

/// Chromium o Chrome: la variable `CHROMIUM` o el primero que esté en el `PATH`.
fn buscar_chromium() -> Result<PathBuf, String> {
    if let Some(ruta) = std::env::var_os("CHROMIUM") {
        let ruta = PathBuf::from(ruta);
        return if ruta.is_file() {
            Ok(ruta)
        } else {
            Err(format!("CHROMIUM dice {}, pero ahí no hay ningún archivo", ruta.display()))
        };
    }
    const NOMBRES: &[&str] = &["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"];
    let camino = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&camino) {
        for nombre in NOMBRES {
            if dir.join(nombre).is_file() {
                return Ok(dir.join(nombre));
            }
        }
    }
    Err(format!(
        "no encuentro Chromium ni Chrome ({}) en el PATH; instálalo (Debian: apt-get install chromium) o dime dónde \
         con CHROMIUM=ruta",
        NOMBRES.join(", ")
    ))
}

fn navegador(raiz: &Path, capturas: &Path) -> Result<(), String> {
    let guion = raiz.join("curso/js/navegador.mjs");
    if !raiz.join("curso/js/node_modules/playwright-core").is_dir() {
        return Err("falta playwright-core: ejecuta `npm ci --prefix curso/js` (necesita Node.js)".into());
    }
    let chromium = buscar_chromium()?;
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
