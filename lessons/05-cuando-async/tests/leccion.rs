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
        "Cada escenario dura 0,8 s",
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

#[test]
fn con_csv_escribe_la_peor_latencia_de_cada_ventana_y_la_grafica_la_dibuja() {
    let dir = std::env::temp_dir().join(format!("leccion-05-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (csv, svg) = (dir.join("latencia.csv"), dir.join("latencia.svg"));
    let salida = leccion(&["--rapido", "--csv", csv.to_str().unwrap()]);
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    let texto = std::fs::read_to_string(&csv).expect("el CSV");
    let filas = leccion_05::lee_csv(&texto).expect("CSV válido");
    for e in leccion_05::Escenario::TODOS {
        assert!(filas.iter().any(|f| f.0 == e.nombre()), "falta {} en el CSV", e.nombre());
    }
    let dibujo = Command::new(env!("CARGO_BIN_EXE_grafica-latencia"))
        .args(["--csv", csv.to_str().unwrap(), "--svg", svg.to_str().unwrap()])
        .output()
        .expect("no arranca");
    assert!(dibujo.status.success(), "{}", String::from_utf8_lossy(&dibujo.stderr));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    let _ = std::fs::remove_dir_all(&dir);
}
