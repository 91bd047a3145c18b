//! La lección corre en modo rápido y cuenta lo que se perdió en cada caso.

use std::process::Command;

fn leccion(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_leccion-15")).args(args).output().expect("no arranca")
}

/// El número que sigue a `etiqueta` en la línea que la contiene.
fn numero_tras(texto: &str, etiqueta: &str) -> f64 {
    let linea = texto.lines().find(|l| l.contains(etiqueta)).unwrap_or_else(|| panic!("falta «{etiqueta}»"));
    let tras = &linea[linea.find(etiqueta).unwrap() + etiqueta.len()..];
    let numero: String = tras.trim_start().chars().take_while(|c| c.is_ascii_digit() || *c == ',').collect();
    let numero = numero.replace(',', ".");
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
        "write_all de 65 536 bytes:   llegaron 1024 al otro extremo",
        "con el future ya soltado, al darles permiso acabaron: el trabajo bloqueante y la tarea",
        // 2. los arreglos no pierden nada; reserve tampoco
        "el mismo future entre vueltas:  íntegros  200, rotos    0, bytes perdidos     0",
        "la lectura en su propia tarea:  íntegros  200, rotos    0, bytes perdidos     0",
        "reserve y luego send:           entregados  200, perdidos    0",
        // 3. el apagado
        "pasaron 5 ms sin señal: apagando",
        "una conexión nueva, rechazada: true",
        "¿acabaron todas a tiempo? false",
        "informe: 7 atendidas, 1 cortadas",
        "en la cola de accept al soltar la escucha lee: ConnectionReset",
    ] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
    assert!(!texto.contains("no sale nunca"), "un future cancelado siguió corriendo:\n{texto}");
    // read_exact y send dentro del select! sí pierden.
    assert!(numero_tras(&texto, "read_exact en el select!:       íntegros") < 200.0, "{texto}");
    assert!(numero_tras(&texto, "send en el select!:             entregados") < 200.0, "{texto}");
}

#[test]
fn los_numeros_llevan_coma_decimal() {
    let texto = String::from_utf8(leccion(&["--rapido"]).stdout).unwrap();
    let fase2 = numero_tras(&texto, "fase 2, terminar lo que hay:");
    assert!(fase2 > 0.0, "{texto}");
    let linea = texto.lines().find(|l| l.contains("fase 2, terminar")).unwrap();
    assert!(!linea.contains('.'), "coma decimal, no punto: «{linea}»");
}

/// SIGTERM, la señal con la que systemd, Docker o Kubernetes piden parar,
/// empieza el apagado igual que el temporizador: la lección espera la señal
/// (`--senal`), la prueba se la manda con `kill` y el informe sale entero.
#[cfg(unix)]
#[test]
fn sigterm_empieza_el_apagado_en_orden() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;

    let mut hijo = Command::new(env!("CARGO_BIN_EXE_leccion-15"))
        .args(["--rapido", "--senal", "60"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("no arranca");
    let mut lineas = BufReader::new(hijo.stdout.take().unwrap()).lines();
    let mut texto = String::new();
    // Lee hasta que la lección dice que espera la señal: sus manejadores ya están puestos.
    for linea in lineas.by_ref() {
        let linea = linea.unwrap();
        texto.push_str(&linea);
        texto.push('\n');
        if linea.contains("esperando SIGTERM") {
            break;
        }
    }
    assert!(texto.contains("esperando SIGTERM"), "la lección no llegó a esperar la señal:\n{texto}");
    let kill = Command::new("kill").args(["-TERM", &hijo.id().to_string()]).status().expect("kill");
    assert!(kill.success());
    for linea in lineas {
        texto.push_str(&linea.unwrap());
        texto.push('\n');
    }
    let estado = hijo.wait().unwrap();
    assert!(estado.success(), "SIGTERM no debe matar la lección, que la atiende:\n{texto}");
    for esperado in ["SIGTERM: apagando", "una conexión nueva, rechazada: true", "informe: 7 atendidas, 1 cortadas"] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
}

#[test]
fn una_opcion_desconocida_da_un_error_claro() {
    let salida = leccion(&["--lento"]);
    assert_eq!(salida.status.code(), Some(2));
    let error = String::from_utf8(salida.stderr).unwrap();
    assert!(error.starts_with("error: opción desconocida «--lento»"), "{error}");
}
