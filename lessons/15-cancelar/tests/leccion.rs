//! La lección corre en modo rápido y cuenta lo que se perdió en cada caso.

use std::process::Command;

fn leccion(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_leccion-15")).args(args).output().expect("no arranca")
}

/// El número que sigue a `etiqueta` en la línea que la contiene.
fn numero_tras(texto: &str, etiqueta: &str) -> f64 {
    let linea = texto.lines().find(|l| l.contains(etiqueta)).unwrap_or_else(|| panic!("falta «{etiqueta}»"));
    let tras = &linea[linea.find(etiqueta).unwrap() + etiqueta.len()..];
    let numero: String = tras.trim_start().chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    numero.parse().unwrap_or_else(|_| panic!("sin número tras «{etiqueta}» en «{linea}»"))
}

#[test]
fn modo_rapido_cuenta_lo_que_se_pierde() {
    let salida = leccion(&["--rapido"]);
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    let texto = String::from_utf8(salida.stdout).unwrap();
    for esperado in [
        // 1. qué se suelta y qué sigue
        "tras el plazo: cancelado",
        "guarda local:               soltada = true",
        "tarea lanzada dentro:       ¿acabó ya? false",
        "trabajo de spawn_blocking:  ¿acabó ya? false",
        "write_all de 65536 bytes:   llegaron 1024 al otro extremo",
        "40 ms después: la tarea acabó = true, el trabajo bloqueante acabó = true",
        // 2. los arreglos no pierden nada; reserve tampoco
        "el mismo future entre vueltas:  íntegros  200, rotos    0, bytes perdidos     0",
        "la lectura en su propia tarea:  íntegros  200, rotos    0, bytes perdidos     0",
        "reserve y luego send:           entregados  200, perdidos    0",
        // 3. el apagado
        "una conexión nueva, rechazada: true",
        "¿acabaron todas a tiempo? false",
        "informe: 7 atendidas, 1 cortadas",
    ] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
    assert!(!texto.contains("no sale nunca"), "un future cancelado siguió corriendo:\n{texto}");
    // read_exact y send dentro del select! sí pierden.
    assert!(numero_tras(&texto, "read_exact en el select!:       íntegros") < 200.0, "{texto}");
    assert!(numero_tras(&texto, "send en el select!:             entregados") < 200.0, "{texto}");
}

#[test]
fn una_opcion_desconocida_da_un_error_claro() {
    let salida = leccion(&["--lento"]);
    assert_eq!(salida.status.code(), Some(2));
    let error = String::from_utf8(salida.stderr).unwrap();
    assert!(error.starts_with("error: opción desconocida «--lento»"), "{error}");
}
