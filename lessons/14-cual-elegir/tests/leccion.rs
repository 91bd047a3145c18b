//! La lección corre en modo rápido (las cinco variantes, los tres escenarios),
//! escribe su CSV donde le decimos y la gráfica lo dibuja.

use std::path::PathBuf;
use std::process::Command;

use leccion_14::{Variante, lee_csv};

fn carpeta() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("leccion-14-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn modo_rapido_mide_los_cuatro_disenos_y_la_grafica_los_dibuja() {
    let dir = carpeta();
    let csv = dir.join("comparacion.csv");
    let salida = Command::new(env!("CARGO_BIN_EXE_leccion-14"))
        .args(["--rapido", "--csv"])
        .arg(&csv)
        .output()
        .expect("no arranca");
    let texto = String::from_utf8_lossy(&salida.stdout);
    assert!(salida.status.success(), "{texto}\n{}", String::from_utf8_lossy(&salida.stderr));
    for esperado in [
        "Capacidad medida:",
        "Claves repartidas al azar:",
        "Tres de cada cuatro peticiones a la clave 0:",
        "una de cada diez peticiones calcula 11 veces más",
        "CSV escrito en",
    ] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
    for v in Variante::TODAS {
        assert!(texto.contains(v.etiqueta()), "falta la fila de «{}»:\n{texto}", v.etiqueta());
    }
    assert!(!texto.contains("falló"), "{texto}");

    let filas = lee_csv(&std::fs::read_to_string(&csv).unwrap()).unwrap();
    assert_eq!(filas.len(), 15, "cinco variantes por tres escenarios, una vez cada una en modo rápido");
    for f in &filas {
        assert_eq!(f.completadas + f.rechazadas, f.ofrecidas, "cada petición acaba completada o rechazada: {f:?}");
        if matches!(f.variante, Variante::TokioSinLimite | Variante::Rayon) {
            assert_eq!(f.rechazadas, 0, "sin límite no se rechaza nada: {f:?}");
        }
        assert!(f.p50_us <= f.p99_us, "{f:?}");
    }

    // La gráfica se prueba con la función de la biblioteca que usa el binario
    // `grafica-comparacion`, sobre una carpeta temporal.
    let svg = dir.join("comparacion.svg");
    leccion_14::grafica::dibuja(&filas, &svg).expect("la gráfica se dibuja");
    let dibujo = std::fs::read_to_string(&svg).unwrap();
    assert!(dibujo.starts_with("<svg"), "no es un SVG");
    assert!(dibujo.contains("Latencia p99"), "falta el panel de la latencia");
}

#[test]
fn una_opcion_desconocida_da_un_error_claro() {
    let salida = Command::new(env!("CARGO_BIN_EXE_leccion-14")).arg("--hilo").output().unwrap();
    assert_eq!(salida.status.code(), Some(2));
    let error = String::from_utf8(salida.stderr).unwrap();
    assert!(error.starts_with("error: opción desconocida «--hilo»"), "{error}");
    assert!(!error.contains("panicked"), "{error}");
}
