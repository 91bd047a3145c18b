//! La lección corre en modo rápido y dice lo que midió.

use std::process::{Command, Output};

fn leccion(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_leccion-10")).args(args).output().expect("no arranca")
}

#[test]
fn modo_rapido_recorre_la_tuberia_entera() {
    let salida = leccion(&["--rapido", "--hilos-tokio", "2", "--hilos-rayon", "2"]);
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    let texto = String::from_utf8(salida.stdout).unwrap();
    for esperado in [
        "Tokio con 2 hilos trabajadores; Rayon con 2 hilos",
        "300 trabajos en total",
        "E/S entrada",
        "en cola",
        "Máximo visto en la cola de Rayon",
        "llegaron antes del pico",
        "llegaron durante el pico",
        "llegaron después del pico",
    ] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
    // La última muestra de la evolución tiene los 300 trabajos terminados.
    let ultima = texto
        .lines()
        .rfind(|l| l.matches('|').count() == 5 && l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .expect("no hay filas de evolución");
    let terminados = ultima.split('|').nth(4).unwrap().trim();
    assert_eq!(terminados, "300", "la última fila debe tener los 300 trabajos terminados: «{ultima}»");
    let todos = texto.lines().find(|l| l.starts_with("todos")).expect("falta la fila «todos»");
    assert!(todos.contains(" 300 "), "la fila «todos» debe contar 300 trabajos: «{todos}»");
    assert_eq!(todos.matches(" ms").count(), 4, "faltan percentiles en «{todos}»");
}

#[test]
fn las_opciones_malas_dan_un_error_claro() {
    for (args, empieza) in [
        (&["--hilos", "4"][..], "error: opción desconocida «--hilos»"),
        (&["--hilos-rayon", "0"][..], "error: --hilos-rayon debe estar entre 1 y 64"),
        (&["--hilos-tokio", "x"][..], "error: --hilos-tokio espera un número entero"),
    ] {
        let salida = leccion(args);
        assert_eq!(salida.status.code(), Some(2), "{args:?}");
        let error = String::from_utf8(salida.stderr).unwrap();
        assert!(error.starts_with(empieza), "{error}");
        assert!(!error.contains("panicked"), "{error}");
    }
}
