//! La lección corre en modo rápido: loom encuentra el aviso perdido y lo
//! enseña; shuttle lo encuentra con las dos planificaciones y lo repite;
//! turmoil encuentra el ingreso doble, lo repite con la misma semilla, la
//! espera exponencial frena la tormenta y el azar en la espera deshace sus ráfagas.

use std::process::Command;

fn leccion(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_leccion-19")).args(args).output().expect("no arranca")
}

#[test]
fn modo_rapido_encuentra_los_tres_errores() {
    let salida = leccion(&["--rapido"]);
    let texto = String::from_utf8_lossy(&salida.stdout).to_string();
    assert!(salida.status.success(), "{texto}\n{}", String::from_utf8_lossy(&salida.stderr));
    for esperado in [
        // loom: el aviso perdido, con su entrelazado
        "loom dice: deadlock",
        "T  busca_tarea: no hay nada",
        "P  dormidos es 0: no avisa a nadie",
        "T  espera sin volver a mirar",
        "aparcar volviendo a mirar: 69 ejecuciones, ninguna falla",
        "loom 1 productor, 2 tareas, cota 1: 11 ejecuciones",
        "loom 2 productores, 2 tareas, cota 2: 594 ejecuciones",
        // loom: UnsafeCell ve la carrera de datos; block_on, el aviso perdido en async
        "dato publicado con una bandera Relaxed: falla en la ejecución 3: Causality violation",
        "dato publicado con una bandera Release: 6 ejecuciones, ninguna falla",
        "block_on, el future se apunta después de mirar: falla: deadlock",
        "block_on, el future se apunta antes de mirar: ninguna ejecución falla",
        // shuttle: lo encuentra, y la planificación lo repite
        "shuttle Azar, iteraciones hasta el fallo por semilla: 476, 639",
        "shuttle Pct(3), iteraciones hasta el fallo por semilla: 41, 4",
        "shuttle dice: deadlock!",
        "shuttle::replay: falla a la primera (1 ejecución), bitácora idéntica: sí",
        // turmoil: el ingreso doble, repetido con la misma semilla
        "semilla 0: saldo 40 (esperado 30); repetida, traza idéntica: sí",
        "ingreso 3: +10, saldo 40",
        "servidor con clave: 0 de 4 semillas no cuadran",
        "espera Fija: 1000 peticiones durante la partición",
        "espera Exponencial: 90 peticiones durante la partición",
        "espera Exponencial: ráfaga mayor de reintentos, 10 en un mismo tic de 10 ms; tras reparar la red, 10",
        "espera ExponencialConAzar: ráfaga mayor de reintentos, 4 en un mismo tic de 10 ms; tras reparar la red, 1",
    ] {
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
