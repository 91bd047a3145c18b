//! Reúne los programas de `programas/NN-tema/*.rs` en el binario, sin
//! listarlos a mano: cada archivo es un programa completo (con su `main`),
//! tal como lo ve quien lee el cuestionario, y aquí se mete en su propio
//! módulo con `include!`.
//!
//! - `programas.rs`: un módulo por programa y la tabla `PROGRAMAS`
//!   (`"06-hilos-verdes/join_no_lanza"` → su `main`), que usa el despachador.
//! - `entrelazados.rs`: los programas con hilos cuyo nombre acaba en
//!   `_entrelazados.rs`, con `std::thread` y `std::sync` cambiados por los de
//!   shuttle; la prueba recorre con ellos todas las planificaciones posibles
//!   y obtiene el conjunto exacto de salidas.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let raiz = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let carpeta = raiz.join("programas");
    println!("cargo:rerun-if-changed={}", carpeta.display());
    let programas = programas(&carpeta);

    let mut todos = String::from("// Generado por build.rs a partir de programas/.\n");
    let mut tabla = String::from("/// Cada programa por su nombre, `NN-tema/archivo`, en orden.\n");
    tabla.push_str("pub(crate) const PROGRAMAS: &[(&str, fn())] = &[\n");
    let mut con_hilos = String::from("// Generado por build.rs: los programas `*_entrelazados.rs`, con shuttle.\n");
    let mut tabla_hilos = String::from("pub(crate) const ENTRELAZADOS: &[(&str, fn())] = &[\n");
    for (nombre, ruta) in &programas {
        let modulo = format!("p_{}", nombre.replace(|c: char| !c.is_ascii_alphanumeric(), "_"));
        let ruta_texto = ruta.to_string_lossy();
        writeln!(
            todos,
            "#[allow(clippy::all)]\nmod {modulo} {{\n    include!({ruta_texto:?});\n    \
             pub(crate) fn ejecutar() {{\n        main()\n    }}\n}}"
        )
        .unwrap();
        writeln!(tabla, "    ({nombre:?}, {modulo}::ejecutar),").unwrap();
        if nombre.ends_with("_entrelazados") {
            let fuente = std::fs::read_to_string(ruta).expect("se lee el programa");
            let con_shuttle =
                fuente.replace("std::thread", "shuttle::thread").replace("std::sync::", "shuttle::sync::");
            writeln!(
                con_hilos,
                "#[allow(clippy::all)]\nmod {modulo} {{\n{con_shuttle}\n    pub(crate) fn ejecutar() {{\n        \
                 main()\n    }}\n}}"
            )
            .unwrap();
            writeln!(tabla_hilos, "    ({nombre:?}, {modulo}::ejecutar),").unwrap();
        }
    }
    tabla.push_str("];\n");
    tabla_hilos.push_str("];\n");
    let salida = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    std::fs::write(salida.join("programas.rs"), todos + &tabla).expect("se escribe programas.rs");
    std::fs::write(salida.join("entrelazados.rs"), con_hilos + &tabla_hilos).expect("se escribe entrelazados.rs");
}

/// `(NN-tema/archivo, ruta)` de cada `programas/NN-tema/archivo.rs`, en orden.
fn programas(carpeta: &Path) -> Vec<(String, PathBuf)> {
    let mut v = Vec::new();
    let Ok(capitulos) = std::fs::read_dir(carpeta) else { return v };
    for capitulo in capitulos.flatten().filter(|e| e.path().is_dir()) {
        let nombre_capitulo = capitulo.file_name().to_string_lossy().into_owned();
        for archivo in std::fs::read_dir(capitulo.path()).expect("se lee la carpeta").flatten() {
            let ruta = archivo.path();
            if ruta.extension().is_some_and(|x| x == "rs") {
                let tallo = ruta.file_stem().unwrap_or_default().to_string_lossy().into_owned();
                v.push((format!("{nombre_capitulo}/{tallo}"), ruta));
            }
        }
    }
    v.sort();
    v
}
