//! La lección corre en modo rápido y dice lo que midió.

use std::process::Command;

fn leccion(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_leccion-12")).args(args).output().expect("no arranca")
}

#[test]
fn modo_rapido_imprime_cuentas_por_shard_y_el_panico_contenido() {
    let salida = leccion(&["--rapido", "--shards", "2"]);
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    let texto = String::from_utf8(salida.stdout).unwrap();
    for esperado in [
        "Servicio clave-valor sobre nucleo: 2 shards, buzones de 256",
        "Peticiones enviadas:",
        "rechazadas, cola llena:",
        "rechazadas, buzón lleno:",
        "  shard 0:",
        "  shard 1:",
        "Pánico contenido en el shard 0",
    ] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
    assert!(!texto.contains("faltan respuestas"), "cada petición debe acabar respondida o rechazada:\n{texto}");
}

#[test]
fn una_opcion_desconocida_da_un_error_claro() {
    let salida = leccion(&["--hilos", "4"]);
    assert_eq!(salida.status.code(), Some(2));
    let error = String::from_utf8(salida.stderr).unwrap();
    assert!(error.starts_with("error: opción desconocida «--hilos»"), "{error}");
    assert!(!error.contains("panicked"), "{error}");
}
