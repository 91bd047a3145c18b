//! La lección corre en modo rápido y cuenta lo que pasó con cada tarea.

use std::process::Command;

fn leccion(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_leccion-07")).args(args).output().expect("no arranca")
}

#[test]
fn modo_rapido_cuenta_cada_desenlace() {
    let salida = leccion(&["--rapido"]);
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    let texto = String::from_utf8(salida.stdout).unwrap();
    for esperado in [
        // 1. el valor y el pánico llegan por el mismo camino
        "una tarea que termina:        Ok(42)",
        "una tarea que entra en pánico: Err, is_panic() = true: «el pedido 17 no existe»",
        // 2. en reposo: nada cambia hasta que el runtime atiende la cancelación
        "justo después de abort:       is_finished() = false, guarda soltada = false",
        "tras ceder el control:        is_finished() = true, guarda soltada = true, sondeos = 1",
        // 3. en marcha: un .await listo no la para; uno que cede, sí
        "pasó un .await que no cede (ready): sigue corriendo",
        "el .await que cede (yield_now) la paró: Err, is_cancelled() = true: cancelada",
        // 4. el abort llega tarde
        "volvió sin ceder: Ok(7)",
        // 5. el bucle de CPU
        "is_finished() justo después:       false",
        "Err, is_cancelled() = true: cancelada",
        "el código después del .await corrió: no",
        // 6. desligada
        "handle soltado; tareas vivas:  1",
        "la tarea avisó «trabajo hecho» y terminó; tareas vivas: 0",
        // 7. JoinSet
        "la primera en terminar:          Ok(\"rápida\")",
        "2 canceladas, guardas soltadas 3",
        "justo al soltarlo:  guardas soltadas 0",
        "tras ceder:         guardas soltadas 3, tareas vivas 0",
        // 8. cerrar el runtime
        "después de cerrarlo: guardas soltadas 1",
    ] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
    assert!(!texto.contains("no sale nunca"), "una tarea cancelada siguió corriendo:\n{texto}");
}

#[test]
fn el_bucle_termina_antes_que_la_cancelacion() {
    let salida = leccion(&["--rapido"]);
    let texto = String::from_utf8(salida.stdout).unwrap();
    let numero = |etiqueta: &str| -> f64 {
        let linea = texto.lines().find(|l| l.contains(etiqueta)).unwrap_or_else(|| panic!("falta «{etiqueta}»"));
        let tras = linea.split(':').nth(1).unwrap().trim();
        tras.split_whitespace().next().unwrap().replace(',', ".").parse().unwrap()
    };
    let pedido = numero("otro hilo pidió abort a los");
    let bucle = numero("el bucle siguió y acabó a los");
    let devuelto = numero("el handle devolvió a los");
    // No son umbrales de tiempo: es el orden de tres instantes del mismo reloj.
    assert!(pedido <= bucle && bucle <= devuelto, "orden inesperado: {pedido} {bucle} {devuelto}\n{texto}");
}

#[test]
fn una_opcion_desconocida_da_un_error_claro() {
    let salida = leccion(&["--lento"]);
    assert_eq!(salida.status.code(), Some(2));
    let error = String::from_utf8(salida.stderr).unwrap();
    assert!(error.starts_with("error: opción desconocida «--lento»"), "{error}");
    assert!(!error.contains("panicked"), "{error}");
}
