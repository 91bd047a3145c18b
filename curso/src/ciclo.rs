//! `cargo curso ciclo`: mide, en esta máquina, el ciclo de trabajo de quien
//! aprende. No es una prueba: es un banco de medida, y sus números van al
//! README.
//!
//! 1. `cargo test` en frío: un clon nuevo del repositorio, con el registro
//!    de crates ya descargado (objetivo: menos de 4 minutos con 2 núcleos).
//! 2. Editar y probar un ejercicio: un cambio de una línea y
//!    `cargo test -p ejercicios-NN`, mediana de tres (objetivo: menos de 1 s).
//! 3. Construir el libro en caliente (objetivo: menos de 5 s).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::ejercicios;

/// Una medida: qué, cuánto y el objetivo.
#[derive(Debug, Clone)]
pub struct Medida {
    pub que: String,
    pub segundos: f64,
    pub objetivo: f64,
}

fn cronometra(dir: &Path, programa: &str, args: &[&str]) -> Result<Duration, String> {
    let inicio = Instant::now();
    let estado = Command::new(programa)
        .args(args)
        .current_dir(dir)
        .env_remove("CARGO_TARGET_DIR")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("no puedo ejecutar {programa}: {e}"))?;
    if !estado.success() {
        return Err(format!("`{programa} {}` falló en {}", args.join(" "), dir.display()));
    }
    Ok(inicio.elapsed())
}

fn mediana(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Mide el ciclo en un clon de `raiz` (solo lo que está en git). `frio`:
/// incluye el `cargo test` en frío, que tarda minutos.
pub fn medir(raiz: &Path, frio: bool, mut progreso: impl FnMut(&str)) -> Result<Vec<Medida>, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let base = raiz.join("target/ciclo");
    let clon = base.join("clon");
    let _ = std::fs::remove_dir_all(&clon);
    std::fs::create_dir_all(&base).map_err(|e| e.to_string())?;
    progreso("clonando el repositorio (lo que está en git)");
    cronometra(&base, "git", &["clone", "-q", &raiz.display().to_string(), "clon"])?;
    let mut medidas = Vec::new();
    if frio {
        progreso("cargo test en frío (tarda unos minutos)");
        let t = cronometra(&clon, &cargo, &["test", "-j2"])?;
        medidas.push(Medida { que: "cargo test en frío, clon nuevo".into(), segundos: t.as_secs_f64(), objetivo: 240.0 });
    } else {
        progreso("compilando una vez (sin medir)");
        cronometra(&clon, &cargo, &["build", "-j2", "--tests"])?;
    }
    let lista = ejercicios::cargar(&clon)?;
    // Con todos los ejercicios de un capítulo resueltos, el crate compila.
    for e in &lista {
        std::fs::copy(clon.join(e.carpeta_solucion()).join(&e.archivo), clon.join(e.carpeta()).join(&e.archivo))
            .map_err(|err| err.to_string())?;
    }
    for e in &lista {
        progreso(&format!("editar y probar «{}»", e.nombre));
        let ruta = clon.join(e.carpeta()).join(&e.archivo);
        let paquete = e.paquete();
        let args = ["test", "-q", "-p", paquete.as_str(), "--test", "ejercicios"];
        cronometra(&clon, &cargo, &args)?; // en caliente a partir de aquí
        let mut tiempos = Vec::new();
        for n in 0..3 {
            let mut texto = std::fs::read_to_string(&ruta).map_err(|err| err.to_string())?;
            texto.push_str(&format!("\n// cambio {n}\n"));
            std::fs::write(&ruta, texto).map_err(|err| err.to_string())?;
            tiempos.push(cronometra(&clon, &cargo, &args)?.as_secs_f64());
        }
        medidas.push(Medida {
            que: format!("editar y probar «{}» (cargo test -p {paquete})", e.nombre),
            segundos: mediana(tiempos),
            objetivo: 1.0,
        });
    }
    progreso("el libro en caliente");
    let curso = [ "run", "-q", "-p", "curso", "--", "libro", "--solo-construir"];
    cronometra(&clon, &cargo, &curso)?;
    let t = cronometra(&clon, &cargo, &curso)?;
    medidas.push(Medida { que: "construir el libro en caliente (cargo libro --solo-construir)".into(), segundos: t.as_secs_f64(), objetivo: 5.0 });
    Ok(medidas)
}
