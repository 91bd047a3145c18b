//! Lo que usa `cargo curso` mientras practicas: el estado de cada ejercicio,
//! ejecutar sus pruebas y resumir el resultado en español.
//!
//! El progreso nunca miente: un ejercicio sin tocar está pendiente (las
//! comprobaciones del curso demuestran que su código inicial falla), y para
//! los demás se guarda el resultado de la última verificación junto con el
//! hash del archivo verificado. Si cambias el archivo, el resultado guardado
//! deja de valer. El archivo `.curso/progreso.toml` se puede borrar sin
//! perder nada más que ese recuerdo.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};

use crate::ejercicios::Ejercicio;
use crate::iniciales;

/// Dónde guarda `cargo curso` su estado, relativo a la raíz (fuera de git).
pub const CARPETA: &str = ".curso";

/// El estado de un ejercicio.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Estado {
    /// Sin tocar: su código inicial.
    Pendiente,
    /// Cambiado desde la última verificación (o nunca verificado).
    SinComprobar,
    /// La última verificación de este mismo archivo falló.
    Falla,
    /// La última verificación de este mismo archivo pasó.
    Hecho,
}

impl Estado {
    pub fn etiqueta(self) -> &'static str {
        match self {
            Estado::Pendiente => "pendiente",
            Estado::SinComprobar => "sin comprobar",
            Estado::Falla => "falla",
            Estado::Hecho => "hecho",
        }
    }
    pub fn marca(self) -> &'static str {
        match self {
            Estado::Pendiente => "·",
            Estado::SinComprobar => "?",
            Estado::Falla => "✘",
            Estado::Hecho => "✔",
        }
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Registro {
    #[serde(default)]
    ejercicio: BTreeMap<String, Entrada>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entrada {
    hash: String,
    paso: bool,
}

fn ruta_progreso(raiz: &Path) -> PathBuf {
    raiz.join(CARPETA).join("progreso.toml")
}

fn leer_registro(raiz: &Path) -> Registro {
    std::fs::read_to_string(ruta_progreso(raiz)).ok().and_then(|t| toml::from_str(&t).ok()).unwrap_or_default()
}

fn hash_actual(raiz: &Path, e: &Ejercicio) -> Option<String> {
    std::fs::read(raiz.join(e.carpeta()).join(&e.archivo)).ok().map(|c| iniciales::hash_git(&c))
}

/// El estado de cada ejercicio de la lista, en el mismo orden.
pub fn estados(raiz: &Path, lista: &[Ejercicio]) -> Vec<Estado> {
    let hashes = iniciales::cargar(raiz).unwrap_or_default();
    let registro = leer_registro(raiz);
    lista
        .iter()
        .map(|e| {
            let actual = hash_actual(raiz, e);
            if actual.is_some() && actual.as_ref() == hashes.get(&e.nombre) {
                return Estado::Pendiente;
            }
            match registro.ejercicio.get(&e.nombre) {
                Some(r) if Some(&r.hash) == actual.as_ref() => {
                    if r.paso {
                        Estado::Hecho
                    } else {
                        Estado::Falla
                    }
                }
                _ => Estado::SinComprobar,
            }
        })
        .collect()
}

/// Anota el resultado de verificar cada ejercicio con su archivo actual, de una vez.
pub fn anotar(raiz: &Path, resultados: &[(&Ejercicio, bool)]) -> Result<(), String> {
    let mut registro = leer_registro(raiz);
    for (e, paso) in resultados {
        match hash_actual(raiz, e) {
            Some(hash) => {
                registro.ejercicio.insert(e.nombre.clone(), Entrada { hash, paso: *paso });
            }
            None => {
                registro.ejercicio.remove(&e.nombre);
            }
        }
    }
    guardar_registro(raiz, &registro)
}

fn guardar_registro(raiz: &Path, registro: &Registro) -> Result<(), String> {
    let ruta = ruta_progreso(raiz);
    std::fs::create_dir_all(ruta.parent().unwrap()).map_err(|err| format!("no puedo crear {CARPETA}/: {err}"))?;
    let texto = format!(
        "# Progreso de `cargo curso`. Puedes borrarlo: solo olvida las últimas verificaciones\n\
         # (`cargo curso verifica --todos` lo rehace). Tus copias están aparte, en {COPIAS}/.\n{}",
        toml::to_string(registro).map_err(|e| e.to_string())?
    );
    std::fs::write(&ruta, texto).map_err(|err| format!("no puedo escribir {}: {err}", ruta.display()))
}

/// Olvida el resultado guardado de un ejercicio.
pub fn olvidar(raiz: &Path, e: &Ejercicio) -> Result<(), String> {
    let mut registro = leer_registro(raiz);
    if registro.ejercicio.remove(&e.nombre).is_some() {
        guardar_registro(raiz, &registro)?;
    }
    Ok(())
}

/// El primer ejercicio, en orden, que no está hecho.
pub fn siguiente(estados: &[Estado]) -> Option<usize> {
    estados.iter().position(|e| *e != Estado::Hecho)
}

/// Busca un ejercicio por nombre; si no existe, sugiere los más parecidos.
pub fn buscar<'a>(lista: &'a [Ejercicio], nombre: &str) -> Result<&'a Ejercicio, String> {
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

/// La lista de ejercicios con su estado; `completo` añade los capítulos, los
/// títulos y la barra de progreso.
pub fn listado(lista: &[Ejercicio], estados: &[Estado], completo: bool) -> String {
    let mut texto = String::new();
    let mut capitulo = "";
    for (e, estado) in lista.iter().zip(estados) {
        if !completo {
            texto.push_str(&format!("  {} {:<14} {}\n", estado.marca(), estado.etiqueta(), e.nombre));
            continue;
        }
        if e.capitulo != capitulo {
            capitulo = &e.capitulo;
            texto.push_str(&format!("\nCapítulo {capitulo}  (cargo test -p {})\n", e.paquete()));
        }
        let compilar = if e.compilar { "  [haz que compile]" } else { "" };
        texto.push_str(&format!(
            "  {} {:<14} {:<16} {}{compilar}\n",
            estado.marca(),
            estado.etiqueta(),
            e.nombre,
            e.titulo
        ));
    }
    if completo {
        let hechos = estados.iter().filter(|e| **e == Estado::Hecho).count();
        texto.push_str(&format!("\nProgreso: {}\n", barra(hechos, lista.len())));
    }
    texto
}

/// Dónde guarda `cargo curso reinicia` tu versión de un ejercicio antes de
/// devolverlo a su código inicial, relativo a la raíz (fuera de git). Está
/// aparte del progreso: borrar `.curso/` no la toca.
pub const COPIAS: &str = "mis-copias";

/// La copia que guardaría `reiniciar`, o `None` si el ejercicio ya tiene su
/// código inicial.
pub fn copia_para_reiniciar(raiz: &Path, e: &Ejercicio) -> Result<Option<PathBuf>, String> {
    let hashes = iniciales::cargar(raiz)?;
    if iniciales::sin_tocar(raiz, e, &hashes) {
        return Ok(None);
    }
    let segundos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    Ok(Some(raiz.join(COPIAS).join(format!("{}-{segundos}.rs", e.nombre))))
}

/// Guarda el archivo del ejercicio en `copia` y lo devuelve a su código inicial.
pub fn reiniciar(raiz: &Path, e: &Ejercicio, copia: &Path) -> Result<(), String> {
    let hashes = iniciales::cargar(raiz)?;
    let original = iniciales::contenido(raiz, e, &hashes)?;
    let ruta = raiz.join(e.carpeta()).join(&e.archivo);
    if let Some(carpeta) = copia.parent() {
        std::fs::create_dir_all(carpeta).map_err(|err| format!("no puedo crear {}: {err}", carpeta.display()))?;
    }
    if ruta.exists() {
        std::fs::copy(&ruta, copia).map_err(|err| format!("no puedo guardar la copia: {err}; no he cambiado nada"))?;
    }
    std::fs::write(&ruta, original).map_err(|err| format!("no puedo escribir {}: {err}", ruta.display()))?;
    olvidar(raiz, e)
}

/// Una barra de progreso: `[########------------] 4/10`.
pub fn barra(hechos: usize, total: usize) -> String {
    let ancho = 20;
    let llenos = (hechos * ancho).checked_div(total).unwrap_or(0);
    format!("[{}{}] {hechos}/{total}", "#".repeat(llenos), "-".repeat(ancho - llenos))
}

/// Lo que pasó al verificar un ejercicio.
#[derive(Debug)]
pub struct Resultado {
    pub paso: bool,
    /// El resumen para mostrar, en español.
    pub informe: String,
}

/// Ejecuta las pruebas de un ejercicio (`cargo test -p ejercicios-NN`) y
/// resume el resultado.
pub fn verificar(raiz: &Path, lista: &[Ejercicio], e: &Ejercicio) -> Result<Resultado, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let salida = Command::new(cargo)
        .args(["test", "--quiet", "--color", "never", "-p", &e.paquete(), "--test", "ejercicios", "--", "--exact"])
        .args(&e.pruebas)
        .current_dir(raiz)
        .env("RUST_BACKTRACE", "0")
        .output()
        .map_err(|err| format!("no puedo ejecutar cargo: {err}"))?;
    let stdout = String::from_utf8_lossy(&salida.stdout);
    let stderr = String::from_utf8_lossy(&salida.stderr);
    let mut informe =
        format!("Ejercicio «{}»: {}\nArchivo: {}\n\n", e.nombre, e.titulo, e.carpeta().join(&e.archivo).display());
    let corrio = stdout.lines().any(|l| l.starts_with("running "));
    if salida.status.success() {
        informe.push_str(&format!("✔ Pasan sus {} pruebas.\n", e.pruebas.len()));
        return Ok(Resultado { paso: true, informe });
    }
    if !corrio {
        // No compila: el error entero, que es donde está la información.
        let errores = errores_de_compilacion(&stderr);
        informe.push_str("✘ No compila. Esto dice el compilador:\n\n");
        informe.push_str(&errores);
        if let Some(otro) = lista
            .iter()
            .find(|o| o.capitulo == e.capitulo && o.nombre != e.nombre && errores.contains(o.archivo.as_str()))
        {
            informe.push_str(&format!(
                "\nOjo: el error está en el archivo de otro ejercicio, «{}» ({}). Las pruebas de un \
                 capítulo se compilan juntas: resuelve ese primero.\n",
                otro.nombre, otro.archivo
            ));
        }
        informe.push_str(&format!("\nMás ayuda: cargo curso pista {}\n", e.nombre));
        return Ok(Resultado { paso: false, informe });
    }
    let fallos = fallos_de_pruebas(&stdout);
    informe.push_str(&format!("✘ Fallan {} de {} pruebas:\n", fallos.len().max(1), e.pruebas.len()));
    for (nombre, mensaje) in &fallos {
        informe.push_str(&format!("\n  • {nombre}\n"));
        for linea in mensaje.lines() {
            informe.push_str(&format!("    {linea}\n"));
        }
    }
    if fallos.is_empty() {
        informe.push_str(&stdout);
    }
    if let Some(pista) = e.pistas.first() {
        informe.push_str(&format!("\nQué probar: {pista}\n"));
    }
    informe.push_str(&format!("Más ayuda: cargo curso pista {}\n", e.nombre));
    Ok(Resultado { paso: false, informe })
}

/// Prueba todos los ejercicios, un capítulo cada vez (`cargo test -p
/// ejercicios-NN`), y dice cuáles pasan. Un capítulo que no compila cuenta
/// como fallo para el ejercicio cuyo archivo tiene el error; de los demás de
/// ese capítulo no se sabe nada y no se devuelven.
pub fn verificar_todos<'a>(
    raiz: &Path,
    lista: &'a [Ejercicio],
    mut progreso: impl FnMut(&str),
) -> Result<Vec<(&'a Ejercicio, bool)>, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    // Primero se compila todo de una vez (cargo reparte el trabajo entre los
    // núcleos); un capítulo que no compila no para a los demás.
    progreso("compilando los ejercicios");
    let mut compilar = Command::new(&cargo);
    compilar.args(["test", "--no-run", "--keep-going", "--quiet", "--test", "ejercicios"]);
    for capitulo in crate::ejercicios::capitulos(lista) {
        if let Some(e) = lista.iter().find(|e| e.capitulo == capitulo) {
            compilar.args(["-p", &e.paquete()]);
        }
    }
    // Si falla, cada capítulo lo vuelve a intentar abajo y dice por qué.
    let _ = compilar.current_dir(raiz).output();
    let mut resultados = Vec::new();
    for capitulo in crate::ejercicios::capitulos(lista) {
        progreso(capitulo);
        let del_capitulo: Vec<&Ejercicio> = lista.iter().filter(|e| e.capitulo == capitulo).collect();
        let salida = Command::new(&cargo)
            .args(["test", "--color", "never", "-p", &del_capitulo[0].paquete(), "--test", "ejercicios"])
            .args(["--no-fail-fast", "--", "--color", "never"])
            .current_dir(raiz)
            .env("RUST_BACKTRACE", "0")
            .output()
            .map_err(|err| format!("no puedo ejecutar cargo: {err}"))?;
        let stdout = String::from_utf8_lossy(&salida.stdout);
        let pasan: Vec<&str> =
            stdout.lines().filter_map(|l| l.strip_prefix("test ")?.strip_suffix(" ... ok")).collect();
        let corrio = stdout.lines().any(|l| l.starts_with("running "));
        for e in del_capitulo {
            if corrio {
                resultados.push((e, e.pruebas.iter().all(|p| pasan.contains(&p.as_str()))));
            } else if String::from_utf8_lossy(&salida.stderr).contains(e.archivo.as_str()) {
                resultados.push((e, false));
            }
        }
    }
    Ok(resultados)
}

/// Los bloques de error del compilador, sin las líneas de progreso de cargo.
pub fn errores_de_compilacion(stderr: &str) -> String {
    let mut salida = String::new();
    for linea in stderr.lines() {
        let t = linea.trim_start();
        if t.starts_with("Compiling ") || t.starts_with("Finished ") || t.starts_with("Blocking ") {
            continue;
        }
        salida.push_str(linea);
        salida.push('\n');
    }
    salida
}

/// De la salida de libtest: cada prueba que falló y su mensaje de pánico.
pub fn fallos_de_pruebas(stdout: &str) -> Vec<(String, String)> {
    let mut fallos = Vec::new();
    let mut actual: Option<(String, Vec<String>)> = None;
    for linea in stdout.lines() {
        if let Some(nombre) = linea.strip_prefix("---- ").and_then(|l| l.strip_suffix(" stdout ----")) {
            fallos.extend(actual.take().map(|(n, m)| (n, m.join("\n"))));
            actual = Some((nombre.to_string(), Vec::new()));
            continue;
        }
        if linea == "failures:" || linea.starts_with("test result:") {
            fallos.extend(actual.take().map(|(n, m)| (n, m.join("\n"))));
            continue;
        }
        let Some((_, mensaje)) = actual.as_mut() else { continue };
        if linea.starts_with("note: ") || linea.starts_with("stack backtrace") || linea.is_empty() && mensaje.is_empty()
        {
            continue;
        }
        if let Some(resto) = linea.strip_prefix("thread '") {
            // thread 'x' (123) panicked at archivo:1:2:
            if let Some(lugar) = resto.split("panicked at ").nth(1) {
                mensaje.push(format!("(en {})", lugar.trim_end_matches(':')));
            }
            continue;
        }
        let linea = linea.replacen("not yet implemented: ", "sin hacer todavía: ", 1);
        let linea = if linea == "not yet implemented" { "sin hacer todavía".to_string() } else { linea };
        mensaje.push(linea);
    }
    fallos.extend(actual.map(|(n, m)| (n, m.join("\n"))));
    // El lugar va al final, tras el mensaje.
    fallos
        .into_iter()
        .map(|(n, m)| {
            let (lugar, resto): (Vec<&str>, Vec<&str>) = m.lines().partition(|l| l.starts_with("(en "));
            let mut texto: Vec<&str> = resto.into_iter().filter(|l| !l.trim().is_empty()).collect();
            texto.extend(lugar);
            (n, texto.join("\n"))
        })
        .collect()
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn lee_los_fallos_de_libtest() {
        let salida = "\nrunning 2 tests\n..\nfailures:\n\n---- reparte::suma stdout ----\n\nthread 'reparte::suma' (77) panicked at exercises/06/src/reparte.rs:20:5:\nnot yet implemented: lanza una tarea\nnote: run with `RUST_BACKTRACE=1`\n\n---- reparte::otra stdout ----\n\nthread 'reparte::otra' (78) panicked at tests/ejercicios.rs:9:9:\nassertion `left == right` failed: 0² + 1² + ... + 9² = 285\n  left: 0\n right: 285\n\n\nfailures:\n    reparte::suma\n    reparte::otra\n\ntest result: FAILED. 0 passed; 2 failed\n";
        let fallos = fallos_de_pruebas(salida);
        assert_eq!(fallos.len(), 2);
        assert_eq!(fallos[0].0, "reparte::suma");
        assert_eq!(fallos[0].1, "sin hacer todavía: lanza una tarea\n(en exercises/06/src/reparte.rs:20:5)");
        assert!(fallos[1].1.starts_with("assertion `left == right` failed: 0² + 1²"), "{}", fallos[1].1);
        assert!(fallos[1].1.contains("right: 285"));
    }

    #[test]
    fn barra_de_progreso() {
        assert_eq!(barra(0, 4), "[--------------------] 0/4");
        assert_eq!(barra(2, 4), "[##########----------] 2/4");
        assert_eq!(barra(4, 4), "[####################] 4/4");
        assert_eq!(barra(0, 0), "[--------------------] 0/0");
    }
}
