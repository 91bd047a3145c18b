//! Probar ejercicios con `cargo test -p ejercicios-NN` y resumir, en
//! español, lo que dijo el compilador o cada prueba que falló.

use std::path::PathBuf;

use super::pantalla;
use crate::error::Error;
use crate::modelo::{Curso, Ejercicio};
use crate::procesos::Proceso;
use crate::procesos::cargo::{Mensaje, mensajes};

/// Lo que pasó al verificar un ejercicio.
#[derive(Debug)]
pub struct Resultado {
    pub paso: bool,
    /// El resumen para mostrar, en español; cabe en una terminal.
    pub informe: String,
    /// Los otros ejercicios del capítulo de los que vino un error o un pánico.
    pub vecinos: Vec<String>,
}

/// Dónde queda la salida entera de la última verificación, relativo a la raíz.
pub const SALIDA_COMPLETA: &str = ".curso/ultima-verificacion.txt";

/// Lo más que esperan las pruebas de un ejercicio antes de darlas por colgadas.
const LIMITE: std::time::Duration = std::time::Duration::from_secs(120);

/// Compila las pruebas de los ejercicios `paquetes` (`ejercicios-NN`) con
/// las mismas características de las dependencias que `cargo test` en todo
/// el espacio de trabajo: se seleccionan todos los paquetes menos los demás
/// ejercicios (las características se unifican sobre lo seleccionado) y solo
/// se compilan las pruebas `ejercicios` (las de las soluciones se llaman
/// `soluciones`). Así, tras un `cargo test`, Tokio y las demás dependencias
/// ya están compiladas y solo se compila el ejercicio.
fn compilar(curso: &Curso, paquetes: &[String]) -> Result<(crate::procesos::Salida, Vec<Mensaje>), Error> {
    let mut otros: Vec<String> =
        curso.ejercicios.iter().map(Ejercicio::paquete).filter(|p| !paquetes.contains(p)).collect();
    otros.dedup();
    let salida = Proceso::cargo()
        .args(["test", "--no-run", "--no-fail-fast", "--message-format=json", "--color", "never", "--workspace"])
        .args(otros.iter().flat_map(|p| ["--exclude", p.as_str()]))
        .args(["--test", "ejercicios"])
        .en(&curso.raiz)
        .salida()?;
    let mensajes = mensajes(&salida.stdout).collect();
    Ok((salida, mensajes))
}

/// El ejecutable de pruebas de un ejercicio y los errores de su crate.
fn de_su_crate(curso: &Curso, e: &Ejercicio, mensajes: &[Mensaje]) -> (Option<PathBuf>, Vec<String>) {
    let manifiesto = curso.ruta(e.carpeta()).join("Cargo.toml");
    let mut ejecutable = None;
    let mut errores = Vec::new();
    for m in mensajes {
        match m {
            Mensaje::CompilerArtifact(a) if a.manifest_path == manifiesto && a.es("test") => {
                ejecutable = a.executable.clone();
            }
            Mensaje::CompilerMessage { manifest_path, message }
                if *manifest_path == manifiesto && message.level == "error" =>
            {
                errores.push(message.rendered.clone().unwrap_or_default());
            }
            _ => {}
        }
    }
    (ejecutable, errores)
}

/// Ejecuta las pruebas de un ejercicio y resume el resultado. La salida
/// entera (la de cargo y la de las pruebas) queda en [`SALIDA_COMPLETA`].
pub fn probar(curso: &Curso, e: &Ejercicio) -> Result<Resultado, Error> {
    let (compilacion, mensajes) = compilar(curso, &[e.paquete()])?;
    let (ejecutable, errores) = de_su_crate(curso, e, &mensajes);
    let mut completa = compilacion.stderr();
    let cabecera = format!("Ejercicio «{}»: {}\nArchivo: {}\n\n", e.nombre, e.titulo, e.ruta().display());
    let resultado = match ejecutable {
        None if errores.is_empty() => {
            let cola: Vec<&str> = completa.lines().rev().take(12).collect();
            let cola: Vec<&str> = cola.into_iter().rev().collect();
            let informe =
                format!("{cabecera}✘ No se pudo compilar. Lo último que dijo cargo:\n\n{}\n", cola.join("\n"));
            Resultado { paso: false, informe, vecinos: Vec::new() }
        }
        None => {
            let (texto, vecinos) = no_compila(curso, e, &errores);
            Resultado { paso: false, informe: format!("{cabecera}{texto}"), vecinos }
        }
        Some(exe) => {
            let r = Proceso::programa(&exe)
                .arg("--exact")
                .args(&e.pruebas)
                .en(&curso.ruta(e.carpeta()))
                .env("RUST_BACKTRACE", "0")
                .env("CARGO_MANIFEST_DIR", curso.ruta(e.carpeta()))
                .con_limite(LIMITE)?;
            completa.push_str(&r.salida);
            let (texto, vecinos) = if r.exito {
                (format!("✔ Pasan sus {} pruebas.\n", e.pruebas.len()), Vec::new())
            } else if r.colgada {
                let texto = format!(
                    "✘ Sus pruebas no terminaron en {} s. ¿Un bucle que nunca cede, o una espera que nadie despierta?\n",
                    LIMITE.as_secs()
                );
                (texto, Vec::new())
            } else {
                fallan(curso, e, &r.salida)
            };
            Resultado { paso: r.exito, informe: format!("{cabecera}{texto}"), vecinos }
        }
    };
    guardar_salida_completa(curso, &completa);
    Ok(resultado)
}

fn guardar_salida_completa(curso: &Curso, texto: &str) {
    let ruta = curso.ruta(SALIDA_COMPLETA);
    if let Some(carpeta) = ruta.parent() {
        let _ = std::fs::create_dir_all(carpeta);
    }
    let _ = std::fs::write(ruta, texto);
}

/// El informe de un ejercicio que no compila: los errores del compilador,
/// que es donde está la información (los primeros; el resto en el archivo
/// de la salida completa). Si vienen del archivo de otro ejercicio, eso va
/// primero: hay que resolver aquel.
fn no_compila(curso: &Curso, e: &Ejercicio, errores: &[String]) -> (String, Vec<String>) {
    const ERRORES_ENTEROS: usize = 2;
    let todo = errores.concat();
    let vecinos: Vec<&Ejercicio> = curso
        .ejercicios_de(&e.capitulo)
        .filter(|o| o.nombre != e.nombre && todo.contains(o.archivo.as_str()))
        .collect();
    let mut informe = String::new();
    for otro in &vecinos {
        informe.push_str(&format!(
            "✘ No compila, y el error está en el archivo de otro ejercicio: «{}» ({}). Las pruebas de un capítulo \
             se compilan juntas: resuelve ese primero (cargo curso verifica {}).\n\n",
            otro.nombre,
            otro.ruta().display(),
            otro.nombre
        ));
    }
    if vecinos.is_empty() {
        informe.push_str("✘ No compila. Esto dice el compilador:\n\n");
    } else {
        informe.push_str("Esto dice el compilador:\n\n");
    }
    for error in errores.iter().take(ERRORES_ENTEROS) {
        informe.push_str(error);
    }
    if errores.len() > ERRORES_ENTEROS {
        informe.push_str(&format!("(y {} errores más en {SALIDA_COMPLETA})\n", errores.len() - ERRORES_ENTEROS));
    }
    (informe, vecinos.iter().map(|o| o.nombre.clone()).collect())
}

/// El informe de un ejercicio que compila pero no pasa: cada prueba que
/// falló con el mensaje del curso primero y dónde se rompió.
fn fallan(curso: &Curso, e: &Ejercicio, salida: &str) -> (String, Vec<String>) {
    let fallos = pantalla::fallos(salida);
    let n = fallos.len().max(1);
    let verbo = if n == 1 { "Falla" } else { "Fallan" };
    let mut informe = format!("✘ {verbo} {n} de {} pruebas:\n", e.pruebas.len());
    let (texto, vecinos) = pantalla::pintar(curso, e, &fallos);
    informe.push_str(&texto);
    if fallos.is_empty() {
        informe
            .push_str(&format!("\n  (no entiendo la salida de las pruebas: la tienes entera en {SALIDA_COMPLETA})\n"));
    }
    for otro in &vecinos {
        informe.push_str(&format!(
            "\nOjo: un pánico vino del archivo de «{otro}», otro ejercicio del capítulo que aún no has resuelto. \
             Resuélvelo primero (cargo curso verifica {otro}).\n"
        ));
    }
    (informe, vecinos)
}

/// Prueba todos los ejercicios, un capítulo cada vez (`cargo test -p
/// ejercicios-NN`), y dice cuáles pasan. Un capítulo que no compila cuenta
/// como fallo para el ejercicio cuyo archivo tiene el error; de los demás de
/// ese capítulo no se sabe nada y no se devuelven.
pub fn probar_todos(curso: &Curso, mut progreso: impl FnMut(&str)) -> Result<Vec<(&Ejercicio, bool)>, Error> {
    let capitulos = curso.capitulos_con_ejercicios();
    let primeros: Vec<&Ejercicio> = capitulos.iter().filter_map(|c| curso.ejercicios_de(c).next()).collect();
    let paquetes: Vec<String> = primeros.iter().map(|e| e.paquete()).collect();
    // Primero se compila todo de una vez (cargo reparte el trabajo entre los
    // núcleos); un capítulo que no compila no para a los demás.
    progreso("compilando los ejercicios");
    let (_, mensajes) = compilar(curso, &paquetes)?;
    let mut resultados = Vec::new();
    for (capitulo, primero) in capitulos.iter().zip(&primeros) {
        progreso(capitulo);
        let (ejecutable, errores) = de_su_crate(curso, primero, &mensajes);
        let Some(exe) = ejecutable else {
            // Un capítulo que no compila cuenta como fallo para el ejercicio
            // cuyo archivo tiene el error; de los demás no se sabe nada.
            let todo = errores.concat();
            resultados.extend(
                curso.ejercicios_de(capitulo).filter(|e| todo.contains(e.archivo.as_str())).map(|e| (e, false)),
            );
            continue;
        };
        let r = Proceso::programa(&exe)
            .en(&curso.ruta(primero.carpeta()))
            .env("RUST_BACKTRACE", "0")
            .env("CARGO_MANIFEST_DIR", curso.ruta(primero.carpeta()))
            .con_limite(LIMITE)?;
        let pasan: Vec<&str> =
            r.salida.lines().filter_map(|l| l.strip_prefix("test ")?.strip_suffix(" ... ok")).collect();
        resultados
            .extend(curso.ejercicios_de(capitulo).map(|e| (e, e.pruebas.iter().all(|p| pasan.contains(&p.as_str())))));
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
