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

/// El volcado guardado (`resultados/volcado.txt`, de `cargo volcado`) que
/// enseña el libro apunta a líneas de `src/lib.rs`: cada «src/lib.rs:L:C»
/// tiene que caer justo en un `.await`. Si alguien mueve el código de
/// arriba, esta prueba pide volver a sacar el volcado.
#[test]
fn el_volcado_guardado_apunta_a_los_await_de_lib_rs() {
    let raiz = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let volcado = std::fs::read_to_string(raiz.join("resultados/volcado.txt")).unwrap();
    let fuente = std::fs::read_to_string(raiz.join("src/lib.rs")).unwrap();
    let lineas: Vec<&str> = fuente.lines().collect();
    let mut vistos = 0;
    for trozo in volcado.split("at src/lib.rs:").skip(1) {
        let mut numeros = trozo.split(|c: char| !c.is_ascii_digit()).filter(|n| !n.is_empty());
        let (l, c): (usize, usize) =
            (numeros.next().unwrap().parse().unwrap(), numeros.next().unwrap().parse().unwrap());
        let linea = lineas.get(l - 1).unwrap_or_else(|| panic!("src/lib.rs no tiene la línea {l}"));
        assert!(
            linea.get(c - 1..).is_some_and(|resto| resto.starts_with("await")),
            "src/lib.rs:{l}:{c} ya no es un .await («{linea}»): vuelve a sacar el volcado con `cargo volcado`"
        );
        vistos += 1;
    }
    assert!(vistos >= 3, "el volcado guardado debería tener al menos tres esperas en src/lib.rs");
}

#[test]
fn una_opcion_desconocida_da_un_error_claro() {
    let salida = leccion(&["--lento"]);
    assert_eq!(salida.status.code(), Some(2));
    let error = String::from_utf8(salida.stderr).unwrap();
    assert!(error.starts_with("error: opción desconocida «--lento»"), "{error}");
}
