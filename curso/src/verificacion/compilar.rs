//! Compilar todas las variantes de una vez y anotar, para cada una, su
//! ejecutable de pruebas, su demo o sus errores.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::espacio::UNIFICADOR;
use super::variantes::{Clase, ErrorDeCompilacion, Variantes};
use crate::error::Error;
use crate::procesos::Proceso;
use crate::procesos::cargo::{Mensaje, mensajes};

/// Compila las variantes del espacio de trabajo `base` con la carpeta de
/// compilación `target`.
pub fn compilar(base: &Path, target: &Path, variantes: &mut Variantes) -> Result<(), Error> {
    let cargo = |args: &[&str]| {
        Proceso::cargo()
            .args(args)
            .args(["--message-format=json", "--quiet", "--manifest-path"])
            .arg(base.join("Cargo.toml"))
            .target(target)
            // Cada variante se compila casi siempre una sola vez: la compilación
            // incremental solo añadiría trabajo.
            .env("CARGO_INCREMENTAL", "0")
    };
    // Solo las pruebas de los ejercicios (`ejercicios` en los crates de
    // exercises/, `soluciones` en los de solutions/): ni las pruebas
    // unitarias de la biblioteca ni otras, que doblarían lo que se compila.
    // Con el paquete que iguala las características (no tiene esas pruebas:
    // no se compila nada suyo).
    let salida = cargo(&["build", "--test", "ejercicios", "--test", "soluciones", "--keep-going", "-p", UNIFICADOR])
        .args(variantes.keys().flat_map(|p| ["-p", p.as_str()]))
        .salida()?;
    anotar(variantes, &salida.stdout);
    // Las demos de las soluciones (`cargo run -p soluciones-NN`), si hay
    // variantes de la solución (sin ningún `-p`, cargo compilaría todo).
    let soluciones: Vec<String> =
        variantes.iter().filter(|(_, v)| v.clase == Clase::Solucion).map(|(paquete, _)| paquete.clone()).collect();
    if !soluciones.is_empty() {
        let demos = cargo(&["build", "--bins", "-p", UNIFICADOR])
            .args(soluciones.iter().flat_map(|p| ["-p", p.as_str()]))
            .salida()?;
        anotar(variantes, &demos.stdout);
    }
    let sin_nada: Vec<&String> =
        variantes.iter().filter(|(_, v)| v.ejecutable.is_none() && v.errores.is_empty()).map(|(p, _)| p).collect();
    if !sin_nada.is_empty() {
        return Err(Error::mensaje(format!("cargo no compiló {sin_nada:?} ni dio errores:\n{}", salida.stderr())));
    }
    Ok(())
}

/// Reparte los mensajes de cargo entre las variantes, por su manifiesto.
fn anotar(variantes: &mut Variantes, json: &[u8]) {
    let por_manifiesto: BTreeMap<PathBuf, String> =
        variantes.iter().map(|(paquete, v)| (v.dir.join("Cargo.toml"), paquete.clone())).collect();
    for mensaje in mensajes(json) {
        match mensaje {
            Mensaje::CompilerArtifact(a) => {
                let Some(v) = por_manifiesto.get(&a.manifest_path).and_then(|p| variantes.get_mut(p)) else { continue };
                if a.es("test") {
                    v.ejecutable = a.executable.or(v.ejecutable.take());
                } else if a.es("bin") && !a.profile.test {
                    v.demo = a.executable.or(v.demo.take());
                }
            }
            Mensaje::CompilerMessage { manifest_path, message } if message.level == "error" => {
                let Some(v) = por_manifiesto.get(&manifest_path).and_then(|p| variantes.get_mut(p)) else { continue };
                let archivos = message.archivos();
                v.errores.push(ErrorDeCompilacion { texto: message.rendered.unwrap_or_default(), archivos });
            }
            _ => {}
        }
    }
}
