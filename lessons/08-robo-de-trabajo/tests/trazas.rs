//! Las trazas grabadas del Tokio de verdad (`book/trazas/tokio-*.json`) y lo
//! grabado de donde salen (`resultados/tokio-*.json`):
//!
//! - cada traza es, byte a byte, la que sale de lo grabado (nadie la ha
//!   retocado a mano, y las frases están al día con el código que las escribe);
//! - lo que deducen los pasos cuadra con los contadores que Tokio publicó:
//!   los robos y las tareas robadas de cada trabajador, y los desbordes;
//! - cada carga enseña lo que promete (un robo, un desborde).
//!
//! No compila Tokio con `--cfg tokio_unstable`: lee los archivos guardados.
//! La coherencia de lo grabado (cada tarea sondeada se lanzó, ninguna se
//! sondea en dos trabajadores a la vez, ningún contador baja) la comprueba el
//! curso (`cargo test -p curso --test curso trazas::`).

use std::path::PathBuf;

use leccion_08::grabacion::{Carga, leer, pasos, traza_json};

fn raiz() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn grabacion(carga: Carga) -> leccion_08::grabacion::Grabacion {
    let ruta = raiz().join(carga.registro());
    let texto = std::fs::read_to_string(&ruta).unwrap_or_else(|e| {
        panic!(
            "no puedo leer {}: {e}; grábala con `cargo planificador --bin grabador -- --carga {}`",
            carga.registro(),
            carga.nombre()
        )
    });
    leer(&texto).unwrap_or_else(|e| panic!("{}: {e}", carga.registro()))
}

#[test]
fn cada_traza_sale_de_lo_grabado() {
    for carga in Carga::TODAS {
        let guardada = std::fs::read_to_string(raiz().join(carga.traza())).unwrap_or_default();
        assert!(
            guardada == traza_json(&grabacion(carga)),
            "{} no es la que sale de {}: rehazla con `cargo run -q -p leccion-08 --bin trazas-tokio`",
            carga.traza(),
            carga.registro()
        );
    }
}

#[test]
fn lo_deducido_cuadra_con_los_contadores() {
    for carga in Carga::TODAS {
        let g = grabacion(carga);
        let p = pasos::pasos(&g);
        let cierre = &g.eventos.last().expect("hay eventos").muestra;
        let dudas = p.iter().filter(|p| p.texto.contains("no bastan")).count();
        for w in 0..g.trabajadores {
            let robos: Vec<u64> =
                p.iter().filter(|p| p.tipo == "robo" && p.columna == Some(w)).map(|p| p.movidas).collect();
            let desbordes = p.iter().filter(|p| p.tipo == "desborde" && p.columna == Some(w)).count() as u64;
            let c = cierre.trabajadores[w];
            let quien = format!("{}, trabajador {w}", carga.registro());
            if dudas == 0 {
                assert_eq!(robos.len() as u64, c.robos, "{quien}: robos deducidos y worker_steal_operations");
                assert_eq!(robos.iter().sum::<u64>(), c.robadas, "{quien}: robadas deducidas y worker_steal_count");
            } else {
                assert!(robos.len() as u64 <= c.robos, "{quien}: más robos deducidos que contados");
            }
            assert_eq!(desbordes, c.desbordes, "{quien}: desbordes deducidos y worker_overflow_count");
        }
    }
}

#[test]
fn cada_carga_ensena_lo_que_promete() {
    for carga in Carga::TODAS {
        let g = grabacion(carga);
        assert_eq!(g.carga, carga, "{}", carga.registro());
        let p = pasos::pasos(&g);
        assert!(
            p.iter().any(|p| p.tipo == carga.promete()),
            "{} no tiene ningún paso «{}»",
            carga.traza(),
            carga.promete()
        );
        assert_eq!(p.last().map(|p| p.tipo), Some("cierre"), "{}: el último paso es el cierre", carga.traza());
    }
}

#[test]
fn sin_la_bandera_el_grabador_dice_como_compilarlo() {
    if cfg!(tokio_unstable) {
        // Con la bandera graba de verdad: esta prueba no es para esa compilación.
        return;
    }
    let salida = std::process::Command::new(env!("CARGO_BIN_EXE_grabador"))
        .args(["--carga", "robo", "--salida", env!("CARGO_TARGET_TMPDIR")])
        .output()
        .expect("arranca");
    let error = String::from_utf8_lossy(&salida.stderr);
    assert_eq!(salida.status.code(), Some(2), "{error}");
    assert!(error.starts_with("error: el grabador usa los ganchos"), "{error}");
    assert!(error.contains("cargo planificador --bin grabador -- --carga robo"), "{error}");
    let mala = std::process::Command::new(env!("CARGO_BIN_EXE_grabador")).args(["--carga", "otra"]).output().unwrap();
    assert_eq!(mala.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&mala.stderr).contains("panicked"));
}
