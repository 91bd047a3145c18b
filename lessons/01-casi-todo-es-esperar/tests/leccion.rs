//! La lección corre en modo rápido y dice lo que midió.

use std::process::Command;

fn leccion(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_leccion-01")).args(args).output().expect("no arranca")
}

#[test]
fn modo_rapido_imprime_sus_medidas() {
    let salida = leccion(&["--rapido"]);
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    let texto = String::from_utf8(salida.stdout).unwrap();
    for esperado in [
        "Peticiones atendidas, una tras otra, en un hilo: 10",
        "espera: base de datos",
        "Calculando:",
        "Esperando:",
        "CPU que gastó el hilo:",
        "peticiones por segundo",
    ] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
    // Diez esperas de 10 ms: el tiempo esperando no puede bajar de 100 ms.
    let esperando: f64 = texto
        .lines()
        .find_map(|l| l.trim().strip_prefix("Esperando:"))
        .and_then(|resto| resto.split_whitespace().next())
        .and_then(|n| n.replace(',', ".").parse().ok())
        .expect("la línea «Esperando:» debe traer los milisegundos");
    assert!(esperando >= 100.0, "diez esperas de 10 ms son al menos 100 ms, no {esperando}");
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
fn un_numero_fuera_de_rango_da_un_error_claro() {
    let salida = leccion(&["--peticiones", "0"]);
    assert_eq!(salida.status.code(), Some(2));
    let error = String::from_utf8(salida.stderr).unwrap();
    assert!(error.starts_with("error: --peticiones debe estar entre 1 y"), "{error}");
}
