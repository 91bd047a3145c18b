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
    for esperado in [
        "Tareas lanzadas:                 1000",
        "B por tarea",
        "Pico de memoria residente",
        "Suma de comprobación:            499500",
    ] {
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

fn tarea_frente_a_hilo(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tarea-frente-a-hilo")).args(args).output().expect("no arranca")
}

#[test]
fn tarea_frente_a_hilo_en_modo_rapido() {
    let salida = tarea_frente_a_hilo(&["--rapido"]);
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    let texto = String::from_utf8(salida.stdout).unwrap();
    for esperado in ["cambio entre hilos:", "cambio entre tareas:", "un cambio entre hilos cuesta", "hilos (KiB/u)"] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
    // Dos filas de memoria (100 y 200), cada una con su número de hilos y tareas.
    let filas: Vec<&str> =
        texto.lines().filter(|l| l.trim_start().starts_with("100 ") || l.trim_start().starts_with("200 ")).collect();
    assert_eq!(filas.len(), 2, "faltan las filas de memoria en:\n{texto}");
    assert!(!texto.contains("escrita en"), "el modo rápido no debe escribir el CSV:\n{texto}");
}

#[test]
fn tarea_frente_a_hilo_rechaza_una_opcion_desconocida() {
    let salida = tarea_frente_a_hilo(&["--tareas", "4"]);
    assert_eq!(salida.status.code(), Some(2));
    let error = String::from_utf8(salida.stderr).unwrap();
    assert!(error.starts_with("error: opción desconocida «--tareas»"), "{error}");
}

#[test]
fn la_grafica_sale_del_csv_guardado() {
    let svg = std::env::temp_dir().join(format!("tarea-hilo-{}.svg", std::process::id()));
    let salida = Command::new(env!("CARGO_BIN_EXE_grafica-tarea-hilo"))
        .args(["--svg", svg.to_str().unwrap()])
        .output()
        .expect("no arranca");
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    let dibujo = std::fs::read_to_string(&svg).expect("el SVG");
    let _ = std::fs::remove_file(&svg);
    assert!(dibujo.starts_with("<svg") && dibujo.contains("tareas de Tokio"), "SVG inesperado");
}
