//! La lección corre en modo rápido, escribe su CSV en una carpeta temporal y
//! `grafica-memoria` lo dibuja.

use std::path::PathBuf;
use std::process::{Command, Output};

fn leccion(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_leccion-11")).args(args).output().expect("no arranca")
}

fn grafica(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grafica-memoria")).args(args).output().expect("no arranca")
}

fn carpeta_temporal(nombre: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("leccion-11-{nombre}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn modo_rapido_mide_los_tres_escenarios_y_escribe_el_csv() {
    let dir = carpeta_temporal("rapido");
    let csv = dir.join("memoria.csv");
    let salida = leccion(&["--rapido", "--csv", csv.to_str().unwrap()]);
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    let texto = String::from_utf8(salida.stdout).unwrap();
    if texto.contains("no tiene /proc") {
        return; // sin /proc no hay medida; la lección lo dice y termina
    }
    for esperado in ["Máquina:", "Resumen", "pico MiB", "p99", "por petición en espera", "CSV escrito en"] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
    let resumen = |etiqueta: &str| -> Vec<String> {
        let fila = texto
            .lines()
            .rfind(|l| l.starts_with(etiqueta))
            .unwrap_or_else(|| panic!("falta la fila «{etiqueta}» en:\n{texto}"));
        // Columnas de ancho fijo tras la etiqueta (28 letras): los números
        // grandes llevan un espacio de miles («12 345»), así que no se parte
        // la fila por los espacios.
        let resto: Vec<char> = fila.chars().skip(28).collect();
        let mut columnas = Vec::new();
        let mut desde = 0;
        for ancho in [8, 9, 10, 9, 11] {
            let hasta = (desde + 1 + ancho).min(resto.len());
            columnas.push(resto[(desde + 1).min(hasta)..hasta].iter().collect::<String>().trim().to_string());
            desde = hasta;
        }
        columnas
    };
    // Columnas tras la etiqueta: llegadas, aceptadas, rechazadas, atendidas...
    let a = resumen("(a) spawn sin límite");
    let b = resumen("(b) spawn con semáforo");
    let c = resumen("(c) cola con try_reserve");
    assert_eq!(a[2], "0", "(a) no rechaza nada: {a:?}");
    assert_eq!(b[2], "0", "(b) no rechaza nada: {b:?}");
    assert_ne!(c[2], "0", "(c) tiene que rechazar durante el pico: {c:?}");

    let leido = std::fs::read_to_string(&csv).expect("no escribió el CSV");
    let filas = leccion_11::lee_csv(&leido).expect("CSV ilegible");
    for escenario in ["sin_limite", "semaforo", "cola_acotada"] {
        assert!(filas.iter().any(|f| f.escenario == escenario), "el CSV no tiene filas de {escenario}");
    }

    let svg = dir.join("memoria.svg");
    let salida = grafica(&["--csv", csv.to_str().unwrap(), "--svg", svg.to_str().unwrap()]);
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    let dibujo = std::fs::read_to_string(&svg).expect("no escribió el SVG");
    assert!(dibujo.starts_with("<svg"), "no parece un SVG");
    assert!(dibujo.contains("spawn sin límite"), "falta la leyenda");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn una_opcion_desconocida_da_un_error_claro() {
    for salida in [leccion(&["--hilos", "4"]), grafica(&["--hilos", "4"])] {
        assert_eq!(salida.status.code(), Some(2));
        let error = String::from_utf8(salida.stderr).unwrap();
        assert!(error.starts_with("error: opción desconocida «--hilos»"), "{error}");
        assert!(!error.contains("panicked"), "{error}");
    }
}

#[test]
fn grafica_sin_csv_lo_dice() {
    let dir = carpeta_temporal("sin-csv");
    let salida =
        grafica(&["--csv", dir.join("no-existe.csv").to_str().unwrap(), "--svg", dir.join("x.svg").to_str().unwrap()]);
    assert_eq!(salida.status.code(), Some(1));
    let error = String::from_utf8(salida.stderr).unwrap();
    assert!(error.starts_with("error: no puedo leer"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}
