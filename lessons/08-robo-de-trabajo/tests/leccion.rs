//! La lección corre en modo rápido y dice lo que midió. Corre con la
//! compilación normal (métricas estables); si alguien compila el workspace con
//! `--cfg tokio_unstable`, comprueba también la parte inestable.

use std::process::Command;

use leccion_08::calcula;

fn leccion(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_leccion-08")).args(args).output().expect("no arranca")
}

/// El número que sigue a `etiqueta` en la línea que la contiene.
fn numero_tras(texto: &str, etiqueta: &str) -> usize {
    let linea =
        texto.lines().find(|l| l.contains(etiqueta)).unwrap_or_else(|| panic!("falta «{etiqueta}» en:\n{texto}"));
    let resto = &linea[linea.find(etiqueta).unwrap() + etiqueta.len()..];
    resto
        .split(|c: char| !c.is_ascii_digit())
        .find(|trozo| !trozo.is_empty())
        .and_then(|trozo| trozo.parse().ok())
        .unwrap_or_else(|| panic!("no hay número tras «{etiqueta}» en «{linea}»"))
}

#[test]
fn modo_rapido_imprime_sus_medidas() {
    let salida = leccion(&["--rapido"]);
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    let texto = String::from_utf8(salida.stdout).unwrap();

    for esperado in [
        "Runtime multihilo con",
        "Ráfaga: 32 tareas de cálculo",
        "Métricas estables (RuntimeMetrics, sin banderas):",
        "global_queue_depth",
    ] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
    if cfg!(target_has_atomic = "64") {
        assert!(texto.contains("(park_count)"), "falta la tabla de park_count en:\n{texto}");
    }

    // Todas las tareas corrieron, en un hilo o en otro, y calcularon bien.
    let propias = numero_tras(&texto, "el hilo que lanzó la ráfaga:");
    let ajenas = numero_tras(&texto, "los demás hilos:");
    assert_eq!(propias + ajenas, 32, "las tareas de cada hilo deben sumar 32:\n{texto}");
    let suma = (0..32u64).fold(0u64, |s, i| s.wrapping_add(calcula(i, leccion_08::VUELTAS / 50)));
    assert!(texto.contains(&format!("Suma de comprobación:            {suma:016x}")), "{texto}");

    if cfg!(tokio_unstable) {
        assert!(texto.contains("Métricas inestables (compilado con --cfg tokio_unstable):"), "{texto}");
        assert!(texto.contains("spawned_tasks_count):       33"), "32 tareas y la que las lanza:\n{texto}");
    } else {
        assert!(texto.contains("Métricas inestables: no están en esta compilación."), "{texto}");
        assert!(texto.contains("cargo planificador"), "debe explicar cómo verlas:\n{texto}");
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

#[test]
fn un_numero_fuera_de_rango_da_un_error_claro() {
    let salida = leccion(&["--tareas", "100000"]);
    assert_eq!(salida.status.code(), Some(2));
    let error = String::from_utf8(salida.stderr).unwrap();
    assert!(error.starts_with("error: --tareas debe estar entre 1 y 2000"), "{error}");
}

#[test]
fn el_alias_planificador_deja_pasar_los_argumentos_tras_dos_guiones() {
    // `cargo planificador -- --tareas 1000` solo funciona si el alias NO
    // termina en `--`: si lo hiciera, la lección recibiría un `--` de más.
    let ruta = concat!(env!("CARGO_MANIFEST_DIR"), "/../../.cargo/config.toml");
    let config = std::fs::read_to_string(ruta).expect("falta .cargo/config.toml");
    let alias = config.lines().find(|l| l.starts_with("planificador")).expect("falta el alias `planificador`");
    assert!(alias.contains("\"leccion-08\"") && alias.contains("tokio_unstable"), "{alias}");
    assert!(!alias.trim_end().ends_with("\"--\"]"), "el alias no debe terminar en \"--\": {alias}");
}
