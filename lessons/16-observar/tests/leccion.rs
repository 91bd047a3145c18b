//! La lección corre en modo rápido: los tramos salen con su petición, las
//! métricas se muestrean y se leen, y la medida de coste da sus tres
//! variantes. No hay umbrales de tiempo: los números dependen de la máquina.

use std::process::Command;

fn leccion(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_leccion-16")).args(args).output().expect("no arranca")
}

#[test]
fn modo_rapido() {
    let salida = leccion(&["--rapido"]);
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    let texto = String::from_utf8(salida.stdout).unwrap();
    for esperado in [
        // 1. tramos: la consulta, en otra tarea, cuelga de su petición
        "atiende{id=1} > empieza",
        "atiende{id=2} > consulta{usuario=20} > la base de datos contesta",
        "atiende{id=1} > responde filas=11",
        // 2. métricas
        "t (ms) | ocupado +ms (t0, t1)",
        // (qué trabajador y cuánto tiempo depende de la máquina: solo se mira que lo diga)
        "salto mayor del tiempo ocupado:",
        "regla con solo el contador (par y quieto):",
        "regla con el contador y el tiempo ocupado (los dos quietos):",
        "lentos (de 10 ms o más) que suman",
        "TaskMonitor, por término medio: sondeo",
        "tareas vivas al final:",
        // 2b. saturado (qué regla señala a quién depende de la máquina: solo se mira que lo diga)
        "2b. Un runtime saturado y sano",
        "trabajador 1: aparca/despierta",
        // 3. coste
        "sin tracing",
        "tracing, suscriptor nulo",
        "tracing, fmt a io::sink",
        "tracing, fmt con nivel WARN",
        "diferencia con «sin tracing», ronda a ronda",
    ] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
    assert!(!texto.contains("no sale nunca"), "la tarea atascada no debería avanzar:\n{texto}");
}

#[test]
fn el_volcado_sin_sus_opciones_explica_como_verlo() {
    let salida = Command::new(env!("CARGO_BIN_EXE_volcado")).output().expect("no arranca");
    assert!(salida.status.success());
    let texto = String::from_utf8(salida.stdout).unwrap();
    assert!(texto.contains("cargo volcado"), "{texto}");
}

#[test]
fn una_opcion_desconocida_da_un_error_claro() {
    let salida = leccion(&["--lento"]);
    assert_eq!(salida.status.code(), Some(2));
    let error = String::from_utf8(salida.stderr).unwrap();
    assert!(error.starts_with("error: opción desconocida «--lento»"), "{error}");
}
