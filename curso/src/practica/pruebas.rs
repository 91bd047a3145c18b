//! Probar ejercicios con `cargo test -p ejercicios-NN` y resumir, en
//! español, lo que dijo el compilador o cada prueba que falló.

use crate::error::Error;
use crate::modelo::{Curso, Ejercicio};
use crate::procesos::{Proceso, Salida};

/// Lo que pasó al verificar un ejercicio.
#[derive(Debug)]
pub struct Resultado {
    pub paso: bool,
    /// El resumen para mostrar, en español.
    pub informe: String,
}

/// Ejecuta las pruebas de un ejercicio (`cargo test -p ejercicios-NN`) y
/// resume el resultado.
pub fn probar(curso: &Curso, e: &Ejercicio) -> Result<Resultado, Error> {
    let salida = Proceso::cargo()
        .args(["test", "--quiet", "--color", "never", "-p", &e.paquete(), "--test", "ejercicios", "--", "--exact"])
        .args(&e.pruebas)
        .en(&curso.raiz)
        .env("RUST_BACKTRACE", "0")
        .salida()?;
    let (stdout, stderr) = (salida.stdout(), salida.stderr());
    let mut informe = format!("Ejercicio «{}»: {}\nArchivo: {}\n\n", e.nombre, e.titulo, e.ruta().display());
    let paso = salida.exito();
    if paso {
        informe.push_str(&format!("✔ Pasan sus {} pruebas.\n", e.pruebas.len()));
    } else if !stdout.lines().any(|l| l.starts_with("running ")) {
        informe.push_str(&no_compila(curso, e, &stderr));
    } else {
        informe.push_str(&fallan(e, &stdout));
    }
    Ok(Resultado { paso, informe })
}

/// El informe de un ejercicio que no compila: el error entero, que es donde
/// está la información.
fn no_compila(curso: &Curso, e: &Ejercicio, stderr: &str) -> String {
    let errores = errores_de_compilacion(stderr);
    let mut informe = format!("✘ No compila. Esto dice el compilador:\n\n{errores}");
    let otro = curso.ejercicios_de(&e.capitulo).find(|o| o.nombre != e.nombre && errores.contains(o.archivo.as_str()));
    if let Some(otro) = otro {
        informe.push_str(&format!(
            "\nOjo: el error está en el archivo de otro ejercicio, «{}» ({}). Las pruebas de un \
             capítulo se compilan juntas: resuelve ese primero.\n",
            otro.nombre, otro.archivo
        ));
    }
    informe.push_str(&format!("\nMás ayuda: cargo curso pista {}\n", e.nombre));
    informe
}

/// El informe de un ejercicio que compila pero no pasa: cada prueba que
/// falló con su mensaje, y la primera pista.
fn fallan(e: &Ejercicio, stdout: &str) -> String {
    let fallos = fallos_de_pruebas(stdout);
    let mut informe = format!("✘ Fallan {} de {} pruebas:\n", fallos.len().max(1), e.pruebas.len());
    for (nombre, mensaje) in &fallos {
        informe.push_str(&format!("\n  • {nombre}\n"));
        for linea in mensaje.lines() {
            informe.push_str(&format!("    {linea}\n"));
        }
    }
    if fallos.is_empty() {
        informe.push_str(stdout);
    }
    if let Some(pista) = e.pistas.first() {
        informe.push_str(&format!("\nQué probar: {pista}\n"));
    }
    informe.push_str(&format!("Más ayuda: cargo curso pista {}\n", e.nombre));
    informe
}

/// Prueba todos los ejercicios, un capítulo cada vez (`cargo test -p
/// ejercicios-NN`), y dice cuáles pasan. Un capítulo que no compila cuenta
/// como fallo para el ejercicio cuyo archivo tiene el error; de los demás de
/// ese capítulo no se sabe nada y no se devuelven.
pub fn probar_todos(curso: &Curso, mut progreso: impl FnMut(&str)) -> Result<Vec<(&Ejercicio, bool)>, Error> {
    let capitulos = curso.capitulos_con_ejercicios();
    let paquetes: Vec<String> =
        capitulos.iter().filter_map(|c| curso.ejercicios_de(c).next()).map(Ejercicio::paquete).collect();
    // Primero se compila todo de una vez (cargo reparte el trabajo entre los
    // núcleos); un capítulo que no compila no para a los demás. Si falla,
    // cada capítulo lo vuelve a intentar abajo y dice por qué.
    progreso("compilando los ejercicios");
    Proceso::cargo()
        .args(["test", "--no-run", "--keep-going", "--quiet", "--test", "ejercicios"])
        .args(paquetes.iter().flat_map(|p| ["-p", p.as_str()]))
        .en(&curso.raiz)
        .salida()?;
    let mut resultados = Vec::new();
    for (capitulo, paquete) in capitulos.iter().zip(&paquetes) {
        progreso(capitulo);
        let salida = Proceso::cargo()
            .args(["test", "--color", "never", "-p", paquete, "--test", "ejercicios"])
            .args(["--no-fail-fast", "--", "--color", "never"])
            .en(&curso.raiz)
            .env("RUST_BACKTRACE", "0")
            .salida()?;
        resultados.extend(del_capitulo(curso.ejercicios_de(capitulo), &salida));
    }
    Ok(resultados)
}

/// Qué ejercicios de un capítulo pasan, según la salida de sus pruebas.
fn del_capitulo<'a>(ejercicios: impl Iterator<Item = &'a Ejercicio>, salida: &Salida) -> Vec<(&'a Ejercicio, bool)> {
    let (stdout, stderr) = (salida.stdout(), salida.stderr());
    let pasan: Vec<&str> = stdout.lines().filter_map(|l| l.strip_prefix("test ")?.strip_suffix(" ... ok")).collect();
    let corrio = stdout.lines().any(|l| l.starts_with("running "));
    ejercicios
        .filter_map(|e| {
            if corrio {
                Some((e, e.pruebas.iter().all(|p| pasan.contains(&p.as_str()))))
            } else {
                stderr.contains(e.archivo.as_str()).then_some((e, false))
            }
        })
        .collect()
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
mod prueba {
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
}
