//! La lección corre en modo rápido y dice lo que midió.

use std::process::Command;

fn leccion(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_leccion-03")).args(args).output().expect("no arranca")
}

#[test]
fn modo_rapido_sostiene_las_conexiones_y_lo_cuenta() {
    let salida = leccion(&["--rapido"]);
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    let texto = String::from_utf8(salida.stdout).unwrap();
    for esperado in [
        "Conexiones pedidas: 200, todas a 127.0.0.1",
        "== Servidor con Tokio: una tarea por conexión ==",
        "== Servidor con un hilo por conexión ==",
        "con un mensaje de ida y vuelta en cada una: 200 de 200",
        "El servidor dice que tiene abiertas: 200",
        "Resumen",
    ] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
    assert_eq!(
        texto.matches("con un mensaje de ida y vuelta en cada una: 200 de 200").count(),
        2,
        "los dos servidores deben sostener las 200 conexiones:\n{texto}"
    );
    if std::path::Path::new("/proc/self/task").exists() {
        // Un hilo por conexión, más el principal y el que acepta.
        assert!(texto.contains("Hilos del proceso (/proc/self/task): 202"), "{texto}");
        assert!(texto.contains("tareas vivas: 201"), "una tarea por conexión y la que acepta:\n{texto}");
        assert!(texto.contains("KiB por conexión"), "{texto}");
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
