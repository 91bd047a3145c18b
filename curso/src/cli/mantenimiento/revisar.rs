//! Las órdenes que revisan el curso: `comprueba`, `estilo`, `ortografia` y
//! `navegador`.

use std::collections::BTreeMap;
use std::path::Path;

use curso::procesos::{self, Proceso};
use curso::verificacion;
use curso::{Curso, Error, libro, revision, servidor};

pub fn comprueba(curso: &Curso, capitulos: &[String], solo_ejercicios: bool, repite: u32) -> Result<(), Error> {
    let mut problemas: Vec<String> = Vec::new();
    if !solo_ejercicios {
        let hecho = libro::construir(&curso.raiz, None)?;
        if hecho.errores + hecho.avisos > 0 {
            problemas.push(format!("el libro tiene {} errores y {} avisos", hecho.errores, hecho.avisos));
        }
        problemas.extend(revision::comprobar_libro(curso).into_iter().map(|p| p.to_string()));
    }
    let elegidos = if capitulos.is_empty() {
        problemas.extend(curso.carpetas_sin_ejercicios().into_iter().map(|p| p.to_string()));
        curso.clone()
    } else {
        if let Some(c) = capitulos.iter().find(|c| curso.ejercicios_de(c).next().is_none()) {
            return Err(Error::mensaje(format!(
                "no hay ejercicios del capítulo «{c}» (¿existe {}?)",
                curso::modelo::ejercicios::lista_de(c).display()
            )));
        }
        curso.con_ejercicios(curso.ejercicios.iter().filter(|e| capitulos.contains(&e.capitulo)).cloned().collect())
    };
    problemas.extend(verificar_repetido(&elegidos, repite.max(1)));
    if problemas.is_empty() {
        println!("Todo en orden.");
        Ok(())
    } else {
        Err(Error::mensaje(format!("{} problemas:\n- {}", problemas.len(), problemas.join("\n- "))))
    }
}

/// Verifica `repite` veces y devuelve cada problema con las veces que salió:
/// uno que sale a veces es una prueba inestable.
fn verificar_repetido(curso: &Curso, repite: u32) -> Vec<String> {
    let mut veces: BTreeMap<String, u32> = BTreeMap::new();
    for vez in 1..=repite {
        let informe = verificacion::verificar(curso);
        if vez == 1 {
            for linea in &informe.resumen {
                println!("  {linea}");
            }
        }
        for linea in &informe.tiempos {
            println!("  [{vez}/{repite}] {linea}");
        }
        for p in informe.problemas {
            *veces.entry(p.to_string()).or_default() += 1;
        }
    }
    if repite > 1 {
        println!("{} verificaciones: {} problemas distintos.", repite, veces.len());
    }
    veces.into_iter().map(|(p, n)| if repite > 1 { format!("[{n} de {repite} veces] {p}") } else { p }).collect()
}

/// `cargo fmt --check` y `cargo clippy -- -D warnings` en todo el espacio de
/// trabajo, salvo los ejercicios de los capítulos con un «haz que compile»:
/// su código inicial no compila a propósito.
pub fn estilo(curso: &Curso) -> Result<(), Error> {
    let mut sin_compilar: Vec<String> = curso.ejercicios.iter().filter(|e| e.compilar).map(|e| e.paquete()).collect();
    sin_compilar.dedup();
    let correr = |args: Vec<String>| {
        println!("… cargo {}", args.join(" "));
        Proceso::cargo()
            .args(&args)
            .en(&curso.raiz)
            .con_exito()
            .map_err(|_| Error::mensaje(format!("`cargo {}` encontró problemas (arriba)", args.join(" "))))
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

pub fn ortografia(raiz: &Path) -> Result<(), Error> {
    // Antes de fiarse del resultado: ¿de verdad reconoce errores?
    let vacio = Default::default();
    let prueba = curso::revision::ortografia::desconocidas("la programasion concurrente", &vacio)?;
    if !prueba.contains("programasion") {
        return Err(Error::mensaje(
            "hunspell no marca «programasion»: ¿está instalado el diccionario es_ES (hunspell-es)?",
        ));
    }
    let problemas = curso::revision::ortografia::comprobar(raiz)?;
    if problemas.is_empty() {
        println!("Sin faltas de ortografía.");
        return Ok(());
    }
    let lista: Vec<String> = problemas.iter().map(|p| p.to_string()).collect();
    Err(Error::mensaje(format!(
        "palabras que no reconozco (corrígelas o, si son correctas, añádelas a {}):\n- {}",
        curso::revision::ortografia::DICCIONARIO,
        lista.join("\n- ")
    )))
}

/// La ruta base del sitio en la prueba del navegador, como la de GitHub Pages.
const BASE_DE_PRUEBA: &str = "/curso-async/";

pub fn navegador(raiz: &Path, capturas: &Path) -> Result<(), Error> {
    let guion = raiz.join("curso/js/navegador.mjs");
    if !raiz.join("curso/js/node_modules/playwright-core").is_dir() {
        return Err(Error::mensaje("falta playwright-core: ejecuta `npm ci --prefix curso/js` (necesita Node.js)"));
    }
    let chromium = procesos::buscar_chromium()?;
    // Como en el flujo de Pages: el sitio vive bajo una ruta base.
    let destino = raiz.join("target/libro-navegador");
    let opciones = libro::Opciones {
        destino: Some(destino.clone()),
        url_del_sitio: Some(BASE_DE_PRUEBA.into()),
        ..libro::Opciones::default()
    };
    let hecho = libro::construir_con(raiz, &opciones)?;
    if hecho.errores + hecho.avisos > 0 {
        let (e, a) = (hecho.errores, hecho.avisos);
        return Err(Error::mensaje(format!("el libro se construyó con {e} errores y {a} avisos")));
    }
    let servidor = servidor::escuchar(0)?;
    let puerto = servidor.server_addr().to_ip().map(|a| a.port());
    let puerto = puerto.ok_or_else(|| Error::mensaje("el servidor no tiene puerto"))?;
    let carpeta = destino.clone();
    std::thread::spawn(move || servidor::atender(servidor, &carpeta, BASE_DE_PRUEBA));
    let url = format!("http://127.0.0.1:{puerto}{BASE_DE_PRUEBA}");
    let capturas = raiz.join(capturas);
    let estado =
        Proceso::node().arg(&guion).arg(&url).arg(&destino).arg(&capturas).env("CHROMIUM", &chromium).estado()?;
    if !estado.success() {
        return Err(Error::mensaje("el libro tiene problemas en el navegador (arriba la lista)"));
    }
    println!("Capturas en {}", capturas.display());
    Ok(())
}
