//! Los dos programas de la lección corren en modo rápido y dicen lo que midieron.

use std::process::{Command, Output};

fn ejecuta(programa: &str, args: &[&str]) -> Output {
    Command::new(programa).args(args).output().expect("no arranca")
}

fn texto_si_va_bien(salida: Output) -> String {
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    String::from_utf8(salida.stdout).unwrap()
}

#[test]
fn tamanos_imprime_cada_future_y_cada_tarea() {
    let texto = texto_si_va_bien(ejecuta(env!("CARGO_BIN_EXE_tamanos"), &["--rapido"]));
    for esperado in [
        "async {}",
        "guarda_bufer()  ([u8; 4096] vivo en el .await)",
        "suelta_bufer()  ([u8; 4096] muerto antes)",
        "nivel_1()",
        "a_la_vez()",
        "tokio::time::sleep(1 ms)",
        "Box::pin(guarda_bufer())  (el puntero)                    8 B",
        "(100 tareas de cada clase)",
        "B por tarea en 1,00 reservas",
    ] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
}

#[test]
fn el_ejecutor_sondea_en_orden_y_cuenta_los_sondeos() {
    let texto = texto_si_va_bien(ejecuta(env!("CARGO_BIN_EXE_ejecutor"), &["--rapido"]));
    for esperado in [
        "sondeo 1: Inicio -> PrimeraEspera (Pending",
        "sondeo 3: SegundaEspera -> Terminado (Ready(50)",
        "[block_on] sondeo 1 de Temporizador: Pending",
        "[waker] despierta al hilo de block_on (unpark)",
        "[block_on] sondeo 2 de Temporizador: Ready",
        "[waker] C vuelve a la cola",
        "Sondeos en total: 8 (A y B: 3 cada una; C: 2)",
    ] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
    // La cola es FIFO y A y B se vuelven a encolar al ceder: se turnan.
    let sondeos: Vec<&str> = texto
        .lines()
        .filter_map(|l| l.strip_prefix("[ejecutor] sondeo "))
        .filter_map(|l| l.split(": ").nth(1))
        .filter(|t| *t != "C")
        .collect();
    assert_eq!(sondeos, ["A", "B", "A", "B", "A", "B"], "{texto}");
}

#[test]
fn una_opcion_desconocida_da_un_error_claro() {
    for programa in [env!("CARGO_BIN_EXE_tamanos"), env!("CARGO_BIN_EXE_ejecutor")] {
        let salida = ejecuta(programa, &["--lento"]);
        assert_eq!(salida.status.code(), Some(2));
        let error = String::from_utf8(salida.stderr).unwrap();
        assert!(error.starts_with("error: opción desconocida «--lento»"), "{error}");
        assert!(!error.contains("panicked"), "{error}");
    }
}
