//! La lección corre en modo rápido, con io_uring si lo hay y sin él
//! (`--sin-uring`, como en una máquina que lo bloquea): en los dos casos
//! termina bien, dice en español qué midió, y la gráfica dibuja su CSV.

use std::path::PathBuf;
use std::process::Command;

use leccion_18::{Servidor, lee_csv};

fn carpeta() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("leccion-18-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn corre(args: &[&str]) -> String {
    let salida = Command::new(env!("CARGO_BIN_EXE_leccion-18")).args(args).output().expect("no arranca");
    let texto = String::from_utf8_lossy(&salida.stdout).to_string();
    assert!(salida.status.success(), "{texto}\n{}", String::from_utf8_lossy(&salida.stderr));
    texto
}

#[test]
fn modo_rapido_con_lo_que_haya_y_la_grafica() {
    let dir = carpeta();
    let csv = dir.join("carga.csv");
    let texto = corre(&["--rapido", "--csv", csv.to_str().unwrap()]);
    for esperado in [
        "io_uring:",
        "Tokio multihilo",
        "Tokio, un runtime por núcleo",
        "Por petición",
        "Cambios de núcleo",
        "CSV escrito en",
    ] {
        assert!(texto.contains(esperado), "falta «{esperado}» en:\n{texto}");
    }
    let hay_uring = leccion_18::sistema::io_uring_disponible().is_ok();
    assert_eq!(texto.contains("io_uring, un anillo por núcleo"), hay_uring, "{texto}");
    let filas = lee_csv(&std::fs::read_to_string(&csv).unwrap()).unwrap();
    // Las cuatro cargas de la medida completa, una vez cada una y por servidor.
    assert_eq!(filas.len(), 4 * if hay_uring { 3 } else { 2 });
    for f in &filas {
        assert_eq!(f.recibidas, f.enviadas, "por loopback no se pierde nada, ni a 80 000/s: {f:?}");
    }
    let svg = dir.join("latencia-carga.svg");
    let salida = Command::new(env!("CARGO_BIN_EXE_grafica-latencia-carga"))
        .args(["--csv", csv.to_str().unwrap(), "--svg", svg.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    let dibujo = std::fs::read_to_string(&svg).unwrap();
    assert!(dibujo.contains("Tokio multihilo"), "la leyenda debe nombrar los servidores");
}

#[test]
fn sin_io_uring_lo_dice_y_mide_el_resto() {
    let texto = corre(&["--rapido", "--sin-uring"]);
    assert!(texto.contains("mido las otras dos"), "{texto}");
    assert!(!texto.contains(Servidor::UringPorNucleo.etiqueta()), "{texto}");
    assert!(texto.contains(Servidor::TokioPorNucleo.etiqueta()), "{texto}");
}
