//! Rehace las trazas del reproductor (`book/trazas/tokio-*.json`) a partir
//! de lo grabado (`lessons/08-robo-de-trabajo/resultados/tokio-*.json`), sin
//! grabar nada: `cargo run -q -p leccion-08 --bin trazas-tokio`. Sirve cuando
//! cambian las frases o el formato; para grabar de nuevo, `--bin grabador`.

use leccion_08::grabacion::{Carga, leer, traza_json};
use opciones::clap::{self, Parser};

fn main() {
    let _: Vacias = opciones::de_la_linea_de_ordenes();
    let raiz = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for carga in Carga::TODAS {
        let registro = raiz.join(carga.registro());
        let texto = match std::fs::read_to_string(&registro) {
            Ok(t) => t,
            Err(e) => falla(&format!(
                "no puedo leer {}: {e}. Grábala con `cargo planificador --bin grabador -- --carga {}`",
                carga.registro(),
                carga.nombre()
            )),
        };
        let g = leer(&texto).unwrap_or_else(|e| falla(&format!("{}: {e}", carga.registro())));
        let json = traza_json(&g);
        if let Err(e) = std::fs::write(raiz.join(carga.traza()), &json) {
            falla(&format!("no puedo escribir {}: {e}", carga.traza()));
        }
        println!("{}: {} bytes", carga.traza(), json.len());
    }
}

/// Este programa no tiene opciones (salvo `--help`).
#[derive(Parser)]
#[command(
    name = "trazas-tokio",
    about = "Rehace las trazas del reproductor (book/trazas/tokio-*.json) a partir de lo grabado en resultados/."
)]
struct Vacias {}

fn falla(mensaje: &str) -> ! {
    eprintln!("error: {mensaje}");
    std::process::exit(1)
}
