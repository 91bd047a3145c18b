//! La lección corre en modo rápido y dice lo que midió.

use std::process::Command;

fn leccion(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_leccion-06")).args(args).output().expect("no arranca")
}

#[test]
fn modo_rapido_imprime_sus_medidas() {
    let salida = leccion(&["--rapido"]);
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    let texto = String::from_utf8(salida.stdout).unwrap();
    for esperado in ["Tareas lanzadas:                 1000", "B por tarea", "Pico de memoria residente", "Suma de comprobación:            499500"] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
}

#[test]
fn una_opcion_desconocida_da_un_error_claro() {
    let salida = leccion(&["--hilos", "4"]);
    assert_eq!(salida.status.code(), Some(2));
    let error = String::from_utf8(salida.stderr).unwrap();
    assert!(error.starts_with("error: opción desconocida «--hilos»"), "{error}");
    assert!(!error.contains("panicked"), "{error}");
}
