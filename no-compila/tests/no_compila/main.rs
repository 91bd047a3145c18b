//! Cada ejemplo de `tests/ui/NN-tema/` sigue sin compilar, con el error que
//! muestra el libro.

use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn los_ejemplos_que_no_deben_compilar_no_compilan() {
    // Rutas relativas al paquete (cargo ejecuta las pruebas desde su
    // carpeta): así el error guardado dice `tests/ui/NN-tema/caso.rs`.
    let ui = Path::new("tests/ui");
    let mut carpetas: Vec<PathBuf> = std::fs::read_dir(ui)
        .unwrap_or_else(|e| panic!("no puedo leer {}: {e}", ui.display()))
        .filter_map(|entrada| entrada.ok().map(|e| ui.join(e.file_name())))
        .filter(|carpeta| carpeta.is_dir())
        .collect();
    carpetas.sort();
    assert!(!carpetas.is_empty(), "no hay ninguna carpeta en tests/ui/");
    comprobar(&carpetas);
}

/// Comprueba todos los casos de `carpetas`, en una sola compilación.
fn comprobar(carpetas: &[PathBuf]) {
    let raiz_paquete = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let casos: Vec<PathBuf> = carpetas.iter().flat_map(|c| casos_en(c)).collect();
    let referencia = version_de_referencia(&raiz_paquete);
    let actual = version_de_rustc();
    if actual.split_whitespace().nth(1) == Some(referencia.as_str()) {
        let t = trybuild::TestCases::new();
        for caso in &casos {
            t.compile_fail(caso);
        }
        return; // al soltar `t`, trybuild compila y compara
    }
    eprintln!(
        "aviso: las salidas exactas se fijaron con rustc {referencia} y tienes `{actual}`; \
         compruebo solo la primera línea de error de cada caso"
    );
    respaldo(&casos);
}

fn casos_en(carpeta: &Path) -> Vec<PathBuf> {
    let mut casos: Vec<PathBuf> = std::fs::read_dir(carpeta)
        .unwrap_or_else(|e| panic!("no puedo leer {}: {e}", carpeta.display()))
        .filter_map(|entrada| entrada.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    casos.sort();
    assert!(!casos.is_empty(), "no hay casos en {}", carpeta.display());
    let bendiciendo = std::env::var("TRYBUILD").is_ok_and(|v| v == "overwrite");
    for caso in casos.iter().filter(|_| !bendiciendo) {
        assert!(
            caso.with_extension("stderr").exists(),
            "{} no tiene su .stderr; créalo con TRYBUILD=overwrite",
            caso.display()
        );
    }
    casos
}

fn version_de_referencia(raiz_paquete: &Path) -> String {
    for dir in raiz_paquete.ancestors() {
        let Ok(texto) = std::fs::read_to_string(dir.join("Cargo.toml")) else { continue };
        if let Some(linea) = texto.lines().find(|l| l.starts_with("rustc-de-referencia")) {
            return linea.split('"').nth(1).expect("rustc-de-referencia = \"x.y.z\"").to_string();
        }
    }
    panic!("falta `rustc-de-referencia` en [workspace.metadata.curso]");
}

fn version_de_rustc() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let salida = Command::new(rustc).arg("-V").output().expect("no puedo ejecutar rustc -V");
    String::from_utf8_lossy(&salida.stdout).trim().to_string()
}

/// Primera línea de error de una salida del compilador.
fn primera_linea_de_error(stderr: &str) -> Option<&str> {
    stderr.lines().find(|l| l.starts_with("error"))
}

/// `tests/ui/06-hilos-verdes/rc_en_await.rs` → `06-hilos-verdes-rc_en_await.rs`:
/// dos capítulos pueden tener casos con el mismo nombre.
fn nombre_en_la_copia(caso: &Path) -> String {
    let leccion = caso.ancestors().nth(1).and_then(|l| l.file_name()).unwrap_or_default().to_string_lossy();
    format!("{leccion}-{}", caso.file_name().unwrap_or_default().to_string_lossy())
}

fn respaldo(casos: &[PathBuf]) {
    let copia = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("casos-ui-respaldo");
    let _ = std::fs::remove_dir_all(&copia);
    std::fs::create_dir_all(&copia).expect("no puedo crear la carpeta de respaldo");
    for caso in casos {
        std::fs::copy(caso, copia.join(nombre_en_la_copia(caso))).expect("no puedo copiar el caso");
    }
    // Con TRYBUILD=overwrite, trybuild escribe la salida nueva junto a la copia
    // (y sigue fallando si un caso compila).
    // SAFETY: esta prueba es la única del binario que toca el entorno.
    unsafe { std::env::set_var("TRYBUILD", "overwrite") };
    {
        let t = trybuild::TestCases::new();
        for caso in casos {
            t.compile_fail(copia.join(nombre_en_la_copia(caso)));
        }
    }
    for caso in casos {
        let fijada = std::fs::read_to_string(caso.with_extension("stderr")).unwrap();
        let nueva =
            std::fs::read_to_string(copia.join(nombre_en_la_copia(caso)).with_extension("stderr")).unwrap_or_default();
        assert_eq!(
            primera_linea_de_error(&nueva),
            primera_linea_de_error(&fijada),
            "{}: el error ya no es el mismo",
            caso.display()
        );
    }
}
