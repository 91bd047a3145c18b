//! La revisión de los capítulos y sus carpetas:
//!
//! - cada capítulo `NN-tema.md` tiene `lessons/`, `exercises/` y `solutions/`
//!   con la misma carpeta, y al revés;
//! - cada capítulo trae sus notas para quien enseña (con tiempo y preguntas)
//!   y la tabla de ejercicios generada;
//! - cada `cargo run -p X` y `cargo test -p X` del libro nombra un paquete
//!   que existe;
//! - cada ruta del repositorio que el libro, el README o la guía de
//!   mantenimiento citan entre comillas invertidas (`solutions/...`) existe.

use std::fs;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::error::{Hallazgo, Tipo};
use crate::modelo::{
    Capitulo, Curso, Grupo, capitulos::tiempo_estimado, ejercicios::lista_de, es_capitulo, normalizar,
};

/// Los nombres de los paquetes del espacio de trabajo: los crates de arriba
/// y los de `lessons/`, `exercises/` y `solutions/`.
pub fn paquetes(raiz: &Path) -> Vec<String> {
    // Los crates de arriba (`curso/`, `graficas/`, `no-compila/`...) y los de
    // cada capítulo.
    let mut manifiestos: Vec<_> =
        fs::read_dir(raiz).into_iter().flatten().flatten().map(|e| e.path().join("Cargo.toml")).collect();
    for grupo in Grupo::TODOS {
        for entrada in fs::read_dir(raiz.join(grupo.carpeta())).into_iter().flatten().flatten() {
            manifiestos.push(entrada.path().join("Cargo.toml"));
        }
    }
    manifiestos
        .iter()
        .filter_map(|m| fs::read_to_string(m).ok()?.parse::<toml::Table>().ok())
        .filter_map(|t| Some(t.get("package")?.get("name")?.as_str()?.to_string()))
        .collect()
}

fn en(archivo: &str, tipo: Tipo, mensaje: String) -> Hallazgo {
    Hallazgo::en_archivo(archivo, None, tipo, mensaje)
}

/// Las órdenes `cargo run -p X` y `cargo test -p X` de una página nombran paquetes que existen.
fn comprobar_ordenes(nombre: &str, texto: &str, paquetes: &[String], h: &mut Vec<Hallazgo>) {
    for orden in ["cargo run -p ", "cargo test -p ", "cargo run --release -p "] {
        for trozo in texto.split(orden).skip(1) {
            let paquete: String =
                trozo.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
            if paquete.is_empty() || paquete.ends_with('-') || paquete == "X" || paquete.contains("NN") {
                continue; // un ejemplo genérico, como `cargo test -p ejercicios-NN`
            }
            if !paquetes.contains(&paquete) {
                let mensaje = format!("book/{nombre}: `{orden}{paquete}` nombra un paquete que no existe");
                h.push(en(&format!("book/{nombre}"), Tipo::PaqueteQueNoExiste, mensaje));
            }
        }
    }
}

/// Las carpetas de arriba cuyas rutas se citan en la prosa.
const CARPETAS_CITADAS: [&str; 8] =
    ["lessons/", "exercises/", "solutions/", "book/", "curso/", "cuestionarios/", "graficas/", "no-compila/"];

/// Las rutas del repositorio que `texto` cita entre comillas invertidas
/// (`solutions/07-joinhandle/incorrectas/plazo/comun.patch`, también con
/// `:línea` detrás) y no existen bajo `raiz`. Las genéricas (`NN-tema`, `*`,
/// `...`, `<...>`) no se miran.
pub fn rutas_que_no_existen(raiz: &Path, archivo: &str, texto: &str) -> Vec<Hallazgo> {
    let mut h = Vec::new();
    for (i, trozo) in texto.split('`').enumerate() {
        // Los trozos impares están entre comillas invertidas.
        if i % 2 == 0 || !CARPETAS_CITADAS.iter().any(|c| trozo.starts_with(c)) || trozo.contains(char::is_whitespace) {
            continue;
        }
        if ["NN", "*", "...", "<", "{"].iter().any(|g| trozo.contains(g)) {
            continue;
        }
        // `hilos.rs:168` o `hilos.rs:168-170`: la ruta es lo de antes.
        let ruta = match trozo.rsplit_once(':') {
            Some((antes, lineas)) if lineas.chars().all(|c| c.is_ascii_digit() || c == '-') => antes,
            _ => trozo,
        };
        if !raiz.join(ruta).exists() {
            h.push(en(archivo, Tipo::RutaQueNoExiste, format!("{archivo}: `{trozo}` no existe en el repositorio")));
        }
    }
    h
}

/// Las notas para quien enseña de un capítulo: el bloque, el tiempo, las
/// preguntas y la tabla de ejercicios si los tiene.
fn comprobar_notas(curso: &Curso, nombre: &str, texto: &str, h: &mut Vec<Hallazgo>) {
    let stem = nombre.trim_end_matches(".md");
    let archivo = format!("book/{nombre}");
    let mut falta = |mensaje: String| h.push(en(&archivo, Tipo::NotasIncompletas, format!("{archivo}: {mensaje}")));
    if !texto.contains("<details class=\"instructor\">") {
        falta("faltan las notas para quien enseña (<details class=\"instructor\">)".into());
    }
    if tiempo_estimado(texto).is_none() {
        falta("las notas no dicen «**Tiempo estimado:** N minutos»".into());
    }
    if !texto.contains("**Preguntas para la sala:**") {
        falta("las notas no traen «**Preguntas para la sala:**»".into());
    }
    let hay_incorrectas = curso.ejercicios_de(stem).any(|e| !e.incorrectas.is_empty());
    if hay_incorrectas && !texto.contains("{{#errores-tipicos}}") {
        falta("las notas no traen {{#errores-tipicos}} (las respuestas incorrectas conocidas, plegadas)".into());
    }
    if curso.ejercicios_de(stem).next().is_some() && !texto.contains("{{#ejercicios}}") {
        falta(format!("usa {{{{#ejercicios}}}} para la tabla de ejercicios (sale de {})", lista_de(stem).display()));
    }
}

/// Cada capítulo trae sus notas para quien enseña (con tiempo y preguntas) y
/// la tabla de ejercicios generada; cada `cargo run -p X` y `cargo test -p X`
/// del libro nombra un paquete que existe.
pub fn comprobar_capitulos(curso: &Curso, paginas: &[PathBuf], paquetes: &[String]) -> Vec<Hallazgo> {
    let mut h = Vec::new();
    for pagina in paginas {
        let nombre = pagina.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let texto = fs::read_to_string(pagina).unwrap_or_default();
        comprobar_ordenes(&nombre, &texto, paquetes, &mut h);
        h.extend(rutas_que_no_existen(&curso.raiz, &format!("book/{nombre}"), &texto));
        if es_capitulo(nombre.trim_end_matches(".md")) {
            comprobar_notas(curso, &nombre, &texto, &mut h);
        }
    }
    for guia in ["README.md", "MANTENIMIENTO.md"] {
        let texto = fs::read_to_string(curso.raiz.join(guia)).unwrap_or_default();
        h.extend(rutas_que_no_existen(&curso.raiz, guia, &texto));
    }
    h
}

/// Las páginas del libro que algún crate incluye como pruebas de documentación.
pub fn capitulos_con_doctest(raiz: &Path) -> Vec<String> {
    let mut nombres = Vec::new();
    for grupo in ["lessons", "solutions", "curso"] {
        let archivos = WalkDir::new(raiz.join(grupo))
            .into_iter()
            .filter_entry(|e| !(e.file_type().is_dir() && e.file_name() == "target"))
            .flatten()
            .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "rs"));
        for archivo in archivos {
            let texto = fs::read_to_string(archivo.path()).unwrap_or_default();
            if !texto.contains("#[cfg(doctest)]") {
                continue;
            }
            for trozo in texto.split("include_str!(\"").skip(1) {
                let incluido = trozo.split('"').next().unwrap_or_default();
                let absoluto = normalizar(&archivo.path().parent().unwrap_or(raiz).join(incluido));
                if absoluto.starts_with(raiz.join("book")) {
                    nombres.extend(absoluto.file_name().map(|n| n.to_string_lossy().into_owned()));
                }
            }
        }
    }
    nombres
}

/// `cargo run -p leccion-NN` (y soluciones-NN) debe saber qué programa ejecutar.
fn comprobar_programas(curso: &Curso, c: &Capitulo, grupo: Grupo, h: &mut Vec<Hallazgo>) {
    let relativa = c.carpeta(grupo);
    let dir = curso.ruta(&relativa);
    let Ok(texto) = fs::read_to_string(dir.join("Cargo.toml")) else { return };
    let tabla = texto.parse::<toml::Table>().unwrap_or_default();
    let carpeta = relativa.display().to_string();
    // Cada programa una vez: `src/main.rs` (con el nombre del paquete),
    // `src/bin/*.rs` y los `[[bin]]` del manifiesto, que pueden nombrar los
    // mismos archivos (para `test = false`).
    let paquete = tabla.get("package").and_then(|p| p.get("name")).and_then(|n| n.as_str()).unwrap_or_default();
    let mut nombres = std::collections::BTreeSet::new();
    if dir.join("src/main.rs").is_file() {
        nombres.insert(paquete.to_string());
    }
    for e in fs::read_dir(dir.join("src/bin")).into_iter().flatten().flatten() {
        nombres.extend(e.path().file_stem().map(|n| n.to_string_lossy().into_owned()));
    }
    let bins = tabla.get("bin").and_then(|b| b.as_array()).cloned().unwrap_or_default();
    for b in &bins {
        nombres.extend(b.get("name").and_then(|n| n.as_str()).map(str::to_string));
    }
    let programas = nombres.len();
    let tiene_defecto = tabla.get("package").and_then(|p| p.get("default-run")).is_some();
    // Con `test = false`, las pruebas unitarias de ese archivo no corren.
    let sin_pruebas = |t: &toml::Value| t.get("test").and_then(|v| v.as_bool()) == Some(false);
    let mut sin_ejecutar: Vec<PathBuf> = Vec::new();
    for b in bins.iter().filter(|b| sin_pruebas(b)) {
        let nombre = b.get("name").and_then(|n| n.as_str()).unwrap_or_default();
        let ruta =
            b.get("path").and_then(|p| p.as_str()).map_or_else(|| format!("src/bin/{nombre}.rs"), str::to_string);
        sin_ejecutar.push(dir.join(ruta));
    }
    if tabla.get("lib").is_some_and(sin_pruebas) {
        let fuentes = WalkDir::new(dir.join("src")).into_iter().flatten();
        sin_ejecutar.extend(
            fuentes
                .map(|e| e.into_path())
                .filter(|r| r.extension().is_some_and(|x| x == "rs"))
                .filter(|r| !r.starts_with(dir.join("src/bin")) && *r != dir.join("src/main.rs")),
        );
    }
    for archivo in sin_ejecutar {
        let texto = fs::read_to_string(&archivo).unwrap_or_default();
        if texto.lines().any(|l| l.trim_start().starts_with("#[test]") || l.trim_start().starts_with("#[cfg(test)]")) {
            let relativo = archivo.strip_prefix(&curso.raiz).unwrap_or(&archivo).display().to_string();
            let mensaje = format!(
                "{relativo} tiene pruebas unitarias, pero su Cargo.toml dice `test = false`: `cargo test` no las ejecuta"
            );
            h.push(en(&carpeta, Tipo::PruebaQueNoCorre, mensaje));
        }
    }
    if programas > 1 && !tiene_defecto {
        let mensaje = format!(
            "{carpeta}/ tiene {programas} programas y ningún default-run: `cargo run -p` no sabría cuál ejecutar"
        );
        h.push(en(&carpeta, Tipo::SinProgramaPorDefecto, mensaje));
    }
    if grupo == Grupo::Soluciones && dir.is_dir() && !dir.join("src/main.rs").is_file() {
        let paquete = c.paquete(grupo);
        let mensaje = format!("{carpeta}/ no tiene src/main.rs: `cargo run -p {paquete}` debe mostrar la solución");
        h.push(en(&carpeta, Tipo::SinProgramaPorDefecto, mensaje));
    }
}

/// Cada capítulo `book/NN-tema.md` tiene sus tres carpetas, y cada carpeta su capítulo.
pub fn comprobar_carpetas(curso: &Curso) -> Vec<Hallazgo> {
    let mut h = Vec::new();
    for grupo in Grupo::TODOS {
        for c in &curso.capitulos {
            let carpeta = c.carpeta(grupo).display().to_string();
            if !curso.ruta(c.carpeta(grupo)).join("Cargo.toml").is_file() {
                let mensaje = format!("el capítulo book/{}.md no tiene {carpeta}/", c.nombre);
                h.push(en(&format!("book/{}.md", c.nombre), Tipo::CarpetaQueFalta, mensaje));
            }
            if grupo != Grupo::Ejercicios {
                comprobar_programas(curso, c, grupo, &mut h);
            }
        }
        for entrada in fs::read_dir(curso.ruta(grupo.carpeta())).into_iter().flatten().flatten() {
            let nombre = entrada.file_name().to_string_lossy().into_owned();
            if entrada.path().is_dir() && curso.capitulo(&nombre).is_none() {
                let carpeta = format!("{}/{nombre}", grupo.carpeta());
                let mensaje = format!("{carpeta} no tiene capítulo book/{nombre}.md");
                h.push(en(&carpeta, Tipo::CarpetaQueFalta, mensaje));
            }
        }
    }
    h
}
