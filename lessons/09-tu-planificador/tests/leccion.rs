//! Los programas de la lección corren en modo rápido y dicen lo que
//! midieron (`banco` y `reparto`); `grafica-escalado` dibuja el CSV que escribe `banco`.

use std::path::PathBuf;
use std::process::{Command, Output};

fn ejecuta(programa: &str, args: &[&str]) -> Output {
    Command::new(programa).args(args).output().expect("no arranca")
}

fn texto_si_va_bien(salida: Output) -> String {
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    String::from_utf8(salida.stdout).unwrap()
}

fn temporal(nombre: &str) -> PathBuf {
    std::env::temp_dir().join(format!("leccion-09-{}-{nombre}", std::process::id()))
}

#[test]
fn el_banco_en_modo_rapido_imprime_su_tabla_y_escribe_el_csv() {
    let csv = temporal("escalado.csv");
    let texto = texto_si_va_bien(ejecuta(
        env!("CARGO_BIN_EXE_banco"),
        &["--rapido", "--hilos", "2", "--csv", csv.to_str().unwrap(), "--maquina", "prueba"],
    ));
    for esperado in [
        "Banco de planificadores",
        "Máquina: prueba,",
        "1 ejecución de calentamiento y 2 medidas, intercaladas",
        "carga          hilos ejecutor",
        "árbol binario: cada tarea lanza dos hasta la profundidad 8 (511 tareas)",
        "¿Se distinguen?",
        "Lo que contó el ejecutor robo, sumando a todos sus trabajadores",
        "CSV: ",
    ] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
    for carga in ["lanza-muchas", "abanico", "cede-muchas", "calculo-corto"] {
        for hilos in [1, 2] {
            for ejecutor in ["una-cola", "robo", "tokio"] {
                let fila = texto.lines().find(|l| {
                    let mut c = l.split_whitespace();
                    c.next() == Some(carga) && c.next() == Some(&hilos.to_string()) && c.next() == Some(ejecutor)
                });
                let fila = fila.unwrap_or_else(|| panic!("falta la fila {carga} {hilos} {ejecutor} en:\n{texto}"));
                // mediana [mín-máx] del reloj y de la CPU, y la CPU de cada trabajador
                let numeros: Vec<f64> = fila
                    .split(|c: char| c.is_whitespace() || c == '[' || c == ']' || c == '-' || c == '+')
                    .filter_map(|t| t.replace(',', ".").parse().ok())
                    .collect();
                assert_eq!(numeros.len(), 1 + 6 + hilos, "{fila}");
                assert!(numeros[2] <= numeros[1] && numeros[1] <= numeros[3], "la mediana entre mín y máx: {fila}");
            }
        }
    }
    let leido = std::fs::read_to_string(&csv).unwrap();
    let filas = leccion_09::lee_csv(&leido).unwrap();
    assert_eq!(filas.len(), 4 * 2 * 3, "4 cargas x 2 hilos x 3 ejecutores:\n{leido}");
    assert!(filas.iter().all(|f| f.maquina == "prueba" && f.ms > 0.0 && f.repeticiones == 2));
    assert!(
        filas.iter().all(|f| f.ms_min <= f.ms && f.ms <= f.ms_max && f.cpu_min <= f.cpu_ms && f.cpu_ms <= f.cpu_max)
    );
    assert!(filas.iter().all(|f| f.cpu_por_hilo.len() <= f.hilos), "una CPU por trabajador, como mucho");

    // Y la gráfica lo dibuja.
    let svg = temporal("escalado.svg");
    let texto = texto_si_va_bien(ejecuta(
        env!("CARGO_BIN_EXE_grafica-escalado"),
        &["--csv", csv.to_str().unwrap(), "--svg", svg.to_str().unwrap()],
    ));
    assert!(texto.contains("24 medidas de 1 máquina"), "{texto}");
    let dibujo = std::fs::read_to_string(&svg).unwrap();
    assert!(dibujo.starts_with("<svg"), "no es un SVG");
    for carga in
        ["lanza-muchas", "abanico", "cede-muchas", "calculo-corto", "hilos trabajadores", "CPU de los trabajadores"]
    {
        assert!(dibujo.contains(carga), "falta «{carga}» en el SVG");
    }
    let _ = std::fs::remove_file(csv);
    let _ = std::fs::remove_file(svg);
}

#[test]
fn reparto_en_modo_rapido_cuenta_lo_que_le_llega_a_cada_trabajador() {
    let texto = texto_si_va_bien(ejecuta(env!("CARGO_BIN_EXE_reparto"), &["--rapido"]));
    for esperado in [
        "Por dónde le llega el trabajo a cada hilo del ejecutor robo, con 2 hilos trabajadores.",
        "2 ejecuciones de cada carga.",
        "cede-muchas: 20 tareas que ceden el control 20 veces cada una",
        "lanza-muchas: una tarea lanza 1000 tareas vacías",
        "tareas sacadas de la cola global",
        "el lanzador",
        "el otro",
        "al otro le llegaron por la cola global, como mínimo",
    ] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
    let error = ejecuta(env!("CARGO_BIN_EXE_reparto"), &["--repeticiones", "0"]);
    assert_eq!(error.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&error.stderr).contains("debe estar entre 1 y 50"));
}

#[test]
fn el_modo_rapido_no_toca_el_csv_del_repositorio() {
    let texto = texto_si_va_bien(ejecuta(env!("CARGO_BIN_EXE_banco"), &["--rapido", "--hilos", "1"]));
    assert!(texto.contains("no escribo el CSV"), "{texto}");
}

#[test]
fn el_csv_y_la_grafica_del_repositorio_estan_y_se_leen() {
    let csv = std::fs::read_to_string(leccion_09::csv_por_defecto()).expect("falta resultados/escalado.csv");
    let filas = leccion_09::lee_csv(&csv).unwrap();
    assert!(!filas.is_empty());
    let svg = std::fs::read_to_string(leccion_09::svg_por_defecto()).expect("falta book/graficas/escalado.svg");
    assert!(svg.starts_with("<svg"));
}

#[test]
fn una_opcion_desconocida_da_un_error_claro() {
    for programa in [env!("CARGO_BIN_EXE_banco"), env!("CARGO_BIN_EXE_grafica-escalado")] {
        let salida = ejecuta(programa, &["--lento"]);
        assert_eq!(salida.status.code(), Some(2));
        let error = String::from_utf8(salida.stderr).unwrap();
        assert!(error.starts_with("error: opción desconocida «--lento»"), "{error}");
        assert!(!error.contains("panicked"), "{error}");
    }
    let salida = ejecuta(env!("CARGO_BIN_EXE_banco"), &["--hilos", "cero"]);
    assert_eq!(salida.status.code(), Some(2));
}

#[test]
fn la_grafica_sin_csv_falla_con_un_mensaje() {
    let salida = ejecuta(env!("CARGO_BIN_EXE_grafica-escalado"), &["--csv", "/no/existe.csv", "--svg", "/tmp/x.svg"]);
    assert_eq!(salida.status.code(), Some(1));
    let error = String::from_utf8(salida.stderr).unwrap();
    assert!(error.starts_with("error: no puedo leer /no/existe.csv"), "{error}");
}
