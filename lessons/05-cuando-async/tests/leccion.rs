//! La lección corre en modo rápido y dice lo que midió.

use std::process::Command;

fn leccion(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_leccion-05")).args(args).output().expect("no arranca")
}

#[test]
fn modo_rapido_imprime_la_tabla() {
    let salida = leccion(&["--rapido"]);
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    let texto = String::from_utf8(salida.stdout).unwrap();
    for esperado in [
        "Máquina:",
        "Cada escenario dura 0.8 s",
        "p50",
        "p99",
        "(a) solo peticiones ligeras",
        "(b) 200 ms de CPU dentro de la tarea",
        "(c) la misma CPU en spawn_blocking",
        "(d) la misma CPU en Rayon + oneshot",
    ] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
    assert!(!texto.contains("sin muestras"), "algún escenario no midió nada:\n{texto}");
    // Cada fila, tras su etiqueta, trae sus tres latencias en ms.
    for etiqueta in ["(a) ", "(b) ", "(c) ", "(d) "] {
        let fila = texto.lines().find(|l| l.starts_with(etiqueta)).expect("falta una fila");
        let cifras = fila.split_once("  ").map_or("", |(_, resto)| resto);
        assert_eq!(cifras.matches(" ms").count(), 3, "fila incompleta: «{fila}»");
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
