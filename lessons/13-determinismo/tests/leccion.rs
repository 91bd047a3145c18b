//! La lección corre en modo rápido: encuentra una semilla que falla, y otro
//! proceso la repite con exactamente la misma traza.

use std::process::Command;

fn leccion(args: &[&str]) -> (Option<i32>, String, String) {
    let salida = Command::new(env!("CARGO_BIN_EXE_leccion-13")).args(args).output().expect("no arranca");
    (salida.status.code(), String::from_utf8(salida.stdout).unwrap(), String::from_utf8(salida.stderr).unwrap())
}

/// El texto entre `desde` y `hasta`.
fn entre<'a>(texto: &'a str, desde: &str, hasta: &str) -> &'a str {
    let i = texto.find(desde).unwrap_or_else(|| panic!("falta «{desde}» en:\n{texto}")) + desde.len();
    let j = texto[i..].find(hasta).unwrap_or_else(|| panic!("falta «{hasta}» en:\n{texto}")) + i;
    &texto[i..j]
}

#[test]
fn encuentra_una_semilla_y_otro_proceso_la_repite_byte_a_byte() {
    let (codigo, texto, error) = leccion(&["--rapido"]);
    assert_eq!(codigo, Some(0), "{error}");
    assert!(texto.contains("Semillas probadas: 200"), "{texto}");
    assert!(texto.contains("traza idéntica, byte a byte"), "{texto}");
    let semilla = entre(&texto, "Primera semilla que falla: ", " (");
    let traza = entre(&texto, "Su traza:\n", "Ejecutada otra vez");

    let (codigo, repeticion, error) = leccion(&["--semilla", semilla]);
    assert_eq!(codigo, Some(0), "{error}");
    let traza_repetida = entre(&repeticion, &format!("Semilla {semilla}:\n"), "Falla: ");
    assert_eq!(traza_repetida.as_bytes(), traza.as_bytes(), "otro proceso, la misma semilla: la misma traza");
}

#[test]
fn una_opcion_desconocida_da_un_error_claro() {
    let (codigo, _, error) = leccion(&["--hilo"]);
    assert_eq!(codigo, Some(2));
    assert!(error.starts_with("error: opción desconocida «--hilo»"), "{error}");
    assert!(!error.contains("panicked"), "{error}");
}
