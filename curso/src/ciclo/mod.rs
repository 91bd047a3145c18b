//! `cargo curso mantenimiento ciclo`: mide, en esta máquina, el ciclo de trabajo de quien
//! aprende. No es una prueba: es un banco de medida, y sus números van al
//! README.
//!
//! 1. `cargo test` en frío: un clon nuevo del repositorio, con el registro
//!    de crates ya descargado (objetivo: menos de 4 minutos con 2 núcleos).
//! 2. Editar y probar un ejercicio: un cambio de una línea y
//!    `cargo test -p ejercicios-NN`, mediana de tres (objetivo: menos de 1 s).
//! 3. Construir el libro en caliente (objetivo: menos de 5 s).
//!
//! Del `cargo test` en frío saca además lo que cuesta cada dependencia
//! directa ([`costes`]): el tiempo de compilar los crates que solo llegan por ella.

pub mod costes;

use std::path::Path;
use std::time::{Duration, Instant};

pub use costes::{Coste, coste_de_dependencias};

use crate::error::Error;
use crate::modelo::ejercicios;
use crate::procesos::Proceso;

/// Una medida: qué, cuánto y el objetivo.
#[derive(Debug, Clone)]
pub struct Medida {
    pub que: String,
    pub segundos: f64,
    pub objetivo: f64,
}

/// Ejecuta `p` (sin mostrar nada) y dice cuánto tardó; un fallo es un error.
fn cronometra(p: Proceso) -> Result<Duration, Error> {
    let inicio = Instant::now();
    p.salida_con_exito()?;
    Ok(inicio.elapsed())
}

/// `cargo` en el clon, con su propio `target/`: el de fuera no cuenta.
fn cargo(clon: &Path, args: &[&str]) -> Proceso {
    Proceso::cargo().args(args).en(clon).env_remove("CARGO_TARGET_DIR")
}

fn mediana(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Mide el ciclo en un clon de `raiz` (solo lo que está en git). `frio`:
/// incluye el `cargo test` en frío, que tarda minutos.
pub fn medir(raiz: &Path, frio: bool, mut progreso: impl FnMut(&str)) -> Result<(Vec<Medida>, Vec<Coste>), Error> {
    let mut costes = Vec::new();
    let base = raiz.join("target/ciclo");
    let clon = base.join("clon");
    let _ = std::fs::remove_dir_all(&clon);
    std::fs::create_dir_all(&base).map_err(|e| Error::crear(&base, e))?;
    progreso("clonando el repositorio (lo que está en git)");
    cronometra(Proceso::git(&base).args(["clone", "-q", &raiz.display().to_string(), "clon"]))?;
    let mut medidas = Vec::new();
    if frio {
        progreso("cargo test en frío (tarda unos minutos)");
        let t = cronometra(cargo(&clon, &["test", "-j2", "--timings"]))?;
        medidas.push(Medida {
            que: "cargo test en frío, clon nuevo".into(),
            segundos: t.as_secs_f64(),
            objetivo: 240.0,
        });
        match coste_de_dependencias(&clon) {
            Ok(c) => costes = c,
            Err(e) => progreso(&format!("no pude calcular el coste de las dependencias: {e}")),
        }
    } else {
        progreso("compilando una vez (sin medir)");
        cronometra(cargo(&clon, &["build", "-j2", "--tests"]))?;
    }
    medidas.extend(editar_y_probar(&clon, &mut progreso)?);
    progreso("el libro en caliente");
    let libro = ["run", "-q", "-p", "curso", "--", "libro", "--solo-construir"];
    cronometra(cargo(&clon, &libro))?;
    let t = cronometra(cargo(&clon, &libro))?;
    medidas.push(Medida {
        que: "construir el libro en caliente (cargo libro --solo-construir)".into(),
        segundos: t.as_secs_f64(),
        objetivo: 5.0,
    });
    Ok((medidas, costes))
}

/// Con todos los ejercicios resueltos, un cambio de una línea en cada uno y
/// `cargo test -p ejercicios-NN`: la mediana de tres.
fn editar_y_probar(clon: &Path, progreso: &mut impl FnMut(&str)) -> Result<Vec<Medida>, Error> {
    let lista = ejercicios::leer(clon)?;
    // Con todos los ejercicios de un capítulo resueltos, el crate compila.
    for e in &lista {
        let (de, a) = (clon.join(e.carpeta_solucion()).join(&e.archivo), clon.join(e.ruta()));
        std::fs::copy(&de, &a).map_err(|err| Error::escribir(a, err))?;
    }
    let mut medidas = Vec::new();
    for e in &lista {
        progreso(&format!("editar y probar «{}»", e.nombre));
        let ruta = clon.join(e.ruta());
        let paquete = e.paquete();
        let args = ["test", "-q", "-p", paquete.as_str()];
        cronometra(cargo(clon, &args))?; // en caliente a partir de aquí
        let mut tiempos = Vec::new();
        for n in 0..3 {
            let mut texto = std::fs::read_to_string(&ruta).map_err(|err| Error::leer(&ruta, err))?;
            // Una línea de código de verdad, no un comentario.
            texto.push_str(&format!("\nconst _: u32 = {n};\n"));
            std::fs::write(&ruta, texto).map_err(|err| Error::escribir(&ruta, err))?;
            tiempos.push(cronometra(cargo(clon, &args))?.as_secs_f64());
        }
        medidas.push(Medida {
            que: format!("editar y probar «{}» (cargo test -p {paquete})", e.nombre),
            segundos: mediana(tiempos),
            objetivo: 1.0,
        });
    }
    Ok(medidas)
}
