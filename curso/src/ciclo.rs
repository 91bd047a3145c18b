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
//! directa: el tiempo de compilar los crates que solo llegan por ella.

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
pub fn medir(raiz: &Path, frio: bool, mut progreso: impl FnMut(&str)) -> Result<(Vec<Medida>, Vec<Coste>), String> {
    let mut costes = Vec::new();
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
        let t = cronometra(&clon, &cargo, &["test", "-j2", "--timings"])?;
        medidas.push(Medida {
            que: "cargo test en frío, clon nuevo".into(),
            segundos: t.as_secs_f64(),
            objetivo: 240.0,
        });
        match coste_de_dependencias(&clon, &cargo) {
            Ok(c) => costes = c,
            Err(e) => progreso(&format!("no pude calcular el coste de las dependencias: {e}")),
        }
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
        let args = ["test", "-q", "-p", paquete.as_str()];
        cronometra(&clon, &cargo, &args)?; // en caliente a partir de aquí
        let mut tiempos = Vec::new();
        for n in 0..3 {
            let mut texto = std::fs::read_to_string(&ruta).map_err(|err| err.to_string())?;
            // Una línea de código de verdad, no un comentario.
            texto.push_str(&format!("\nconst _: u32 = {n};\n"));
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
    let curso = ["run", "-q", "-p", "curso", "--", "libro", "--solo-construir"];
    cronometra(&clon, &cargo, &curso)?;
    let t = cronometra(&clon, &cargo, &curso)?;
    medidas.push(Medida {
        que: "construir el libro en caliente (cargo libro --solo-construir)".into(),
        segundos: t.as_secs_f64(),
        objetivo: 5.0,
    });
    Ok((medidas, costes))
}

/// Lo que cuesta una dependencia directa en la compilación en frío.
#[derive(Debug, Clone)]
pub struct Coste {
    /// La dependencia directa (`tokio`) y quién la usa.
    pub dependencia: String,
    pub usada_por: Vec<String>,
    /// Cuántos paquetes llegan solo a través de ella (ella incluida).
    pub paquetes: usize,
    /// Segundos de compilación de esos paquetes, sumados (tiempo de CPU de
    /// cada unidad, no de reloj: con 2 núcleos se solapan).
    pub segundos: f64,
}

/// Lee el informe de `cargo test --timings` de `dir` y el grafo de
/// dependencias (`cargo metadata`), y reparte el tiempo de compilación entre
/// las dependencias directas de los paquetes del espacio de trabajo: lo que
/// se ahorraría si ningún paquete del espacio de trabajo la usara (si otra
/// dependencia también la trae, no se ahorra nada).
pub fn coste_de_dependencias(dir: &Path, cargo: &str) -> Result<Vec<Coste>, String> {
    use std::collections::{BTreeMap, BTreeSet};
    let html = std::fs::read_to_string(dir.join("target/cargo-timings/cargo-timing.html"))
        .map_err(|e| format!("no hay informe de --timings: {e}"))?;
    let inicio = html.find("const UNIT_DATA = ").ok_or("el informe no tiene UNIT_DATA")? + "const UNIT_DATA = ".len();
    let unidades: serde_json::Value = serde_json::Deserializer::from_str(&html[inicio..])
        .into_iter()
        .next()
        .ok_or("UNIT_DATA vacío")?
        .map_err(|e| format!("UNIT_DATA: {e}"))?;
    let mut duracion: BTreeMap<(String, String), f64> = BTreeMap::new();
    for u in unidades.as_array().into_iter().flatten() {
        let clave =
            (u["name"].as_str().unwrap_or_default().to_string(), u["version"].as_str().unwrap_or_default().to_string());
        *duracion.entry(clave).or_default() += u["duration"].as_f64().unwrap_or(0.0);
    }
    // Solo los paquetes de esta plataforma: los de otras (kqueue en macOS)
    // ni se han descargado.
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc).arg("-vV").output().map_err(|e| format!("no puedo ejecutar rustc: {e}"))?;
    let host = String::from_utf8_lossy(&version.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .ok_or("rustc -vV no dice su plataforma")?;
    let salida = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline", "--filter-platform", &host])
        .current_dir(dir)
        .output()
        .map_err(|e| format!("no puedo ejecutar cargo metadata: {e}"))?;
    let meta: serde_json::Value = serde_json::from_slice(&salida.stdout).map_err(|e| format!("cargo metadata: {e}"))?;
    let paquetes: BTreeMap<&str, (String, String)> = meta["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| {
            Some((p["id"].as_str()?, (p["name"].as_str()?.to_string(), p["version"].as_str()?.to_string())))
        })
        .collect();
    let miembros: BTreeSet<&str> =
        meta["workspace_members"].as_array().into_iter().flatten().filter_map(|m| m.as_str()).collect();
    let aristas: BTreeMap<&str, Vec<&str>> = meta["resolve"]["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|n| {
            let deps = n["deps"].as_array()?.iter().filter_map(|d| d["pkg"].as_str()).collect();
            Some((n["id"].as_str()?, deps))
        })
        .collect();
    let alcanzables = |sin: Option<&str>| {
        let mut vistos: BTreeSet<&str> = BTreeSet::new();
        let mut pila: Vec<&str> = miembros.iter().copied().collect();
        while let Some(n) = pila.pop() {
            if !vistos.insert(n) {
                continue;
            }
            // Sin la dependencia directa `sin`: los miembros no la usan,
            // pero otras dependencias pueden seguir trayéndola.
            let quitar = |d: &&str| miembros.contains(n) && Some(*d) == sin;
            pila.extend(aristas.get(n).into_iter().flatten().filter(|d| !quitar(d)).copied());
        }
        vistos
    };
    let todos = alcanzables(None);
    let mut directas: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for m in &miembros {
        for d in aristas.get(m).into_iter().flatten().filter(|d| !miembros.contains(*d)) {
            directas.entry(d).or_default().insert(paquetes.get(m).map(|p| p.0.clone()).unwrap_or_default());
        }
    }
    let mut costes: Vec<Coste> = directas
        .into_iter()
        .map(|(d, usuarios)| {
            let sin = alcanzables(Some(d));
            let solo: Vec<&str> = todos.difference(&sin).copied().collect();
            let segundos =
                solo.iter().filter_map(|id| paquetes.get(id)).filter_map(|p| duracion.get(p)).sum::<f64>() + 0.0;
            let (nombre, version) = paquetes.get(d).cloned().unwrap_or_default();
            Coste {
                dependencia: format!("{nombre} {version}"),
                usada_por: usuarios.into_iter().collect(),
                paquetes: solo.len(),
                segundos,
            }
        })
        .collect();
    let total: f64 = duracion.values().sum();
    let propios: f64 = miembros.iter().filter_map(|id| paquetes.get(id)).filter_map(|p| duracion.get(p)).sum();
    costes.sort_by(|a, b| b.segundos.total_cmp(&a.segundos));
    costes.retain(|c| c.paquetes > 0);
    costes.push(Coste {
        dependencia: "(los paquetes del curso: lecciones, ejercicios, soluciones y curso)".into(),
        usada_por: Vec::new(),
        paquetes: miembros.len(),
        segundos: propios,
    });
    costes.push(Coste {
        dependencia: "(total de la compilación)".into(),
        usada_por: Vec::new(),
        paquetes: paquetes.len(),
        segundos: total,
    });
    Ok(costes)
}
