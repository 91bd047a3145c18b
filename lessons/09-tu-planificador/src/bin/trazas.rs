//! Escribe las trazas del reproductor del libro en `book/trazas/`:
//! `cargo run -q -p leccion-09 --bin trazas`. Son deterministas: la misma
//! semilla da el mismo archivo, byte a byte.

use leccion_09::trazas::{ESCENARIOS, carpeta_de_trazas};

fn main() {
    let carpeta = carpeta_de_trazas();
    if let Err(e) = std::fs::create_dir_all(&carpeta) {
        eprintln!("error: no puedo crear {}: {e}", carpeta.display());
        std::process::exit(1);
    }
    for escenario in &ESCENARIOS {
        let ruta = carpeta.join(escenario.archivo);
        let json = escenario.genera();
        if let Err(e) = std::fs::write(&ruta, &json) {
            eprintln!("error: no puedo escribir {}: {e}", ruta.display());
            std::process::exit(1);
        }
        let eventos = json.lines().filter(|l| l.starts_with("{\"tipo\"")).count();
        println!(
            "{}: {} eventos, {} bytes",
            ruta.display(),
            medidas::entero(eventos as u64),
            medidas::entero(json.len() as u64)
        );
    }
}
