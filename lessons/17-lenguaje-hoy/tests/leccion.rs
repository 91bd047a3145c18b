//! La lección corre en modo rápido: cuenta reservas por llamada, descargas
//! en curso a la vez y guardas soltadas.

use std::process::Command;

fn leccion(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_leccion-17")).args(args).output().expect("no arranca")
}

#[test]
fn modo_rapido_cuenta_lo_que_pasa() {
    let salida = leccion(&["--rapido"]);
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    let texto = String::from_utf8(salida.stdout).unwrap();
    let linea = |etiqueta: &str| -> String {
        texto.lines().find(|l| l.contains(etiqueta)).unwrap_or_else(|| panic!("falta «{etiqueta}» en:\n{texto}")).into()
    };
    // La columna de las reservas: 20 letras tras las 3 de sangría, el nombre (32) y un espacio.
    let reservas = |etiqueta: &str| -> f64 {
        let columna: String = linea(etiqueta).chars().skip(36).take(20).collect();
        columna.trim().replace(',', ".").parse().unwrap_or_else(|_| panic!("«{columna}» no es un número"))
    };
    // Una llamada estática no reserva; cada llamada dinámica, una caja.
    assert_eq!(reservas("genérico, async fn en el trait"), 0.0, "{texto}");
    assert_eq!(reservas("dyn, caja escrita a mano"), 1.0, "{texto}");
    assert_eq!(reservas("dyn, #[async_trait]"), 1.0, "{texto}");
    for esperado in [
        "buffer_unordered(4)            hechas 12, en curso a la vez como mucho 4,",
        "buffer_unordered(usize::MAX)   hechas 12, en curso a la vez como mucho 12,",
        "un Stream escrito a mano (Cuenta::new(5)): [0, 1, 2, 3, 4]",
        "a medias tras un sondeo; guardas soltadas: 0",
        "después de Pin::set:         guardas soltadas: 1",
        "el nuevo dio 2 en 2 sondeos; guardas soltadas: 2",
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
