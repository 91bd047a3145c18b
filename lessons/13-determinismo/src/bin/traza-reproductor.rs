//! Escribe `book/trazas/cajeros.json`, la traza de la semilla que falla para
//! el reproductor del libro: `cargo run -q -p leccion-13 --bin traza-reproductor`.

use leccion_13::reproductor::{SEMILLA_QUE_FALLA, ruta_en_el_libro, traza_json};

fn main() {
    let ruta = ruta_en_el_libro();
    let json = traza_json(SEMILLA_QUE_FALLA);
    if let Err(e) = std::fs::write(&ruta, &json) {
        eprintln!("error: no puedo escribir {}: {e}", ruta.display());
        std::process::exit(1);
    }
    println!("{}: {} bytes", ruta.display(), medidas::entero(json.len() as u64));
}
