//! Dibuja el CSV de la lección 18 en `book/graficas/latencia-carga.svg`.
//!
//! ```text
//! cargo run -p leccion-18 --bin grafica-latencia-carga
//! cargo run -p leccion-18 --bin grafica-latencia-carga -- --csv otra.csv --svg otra.svg
//! ```

use leccion_18::grafica::{dibuja, opciones};
use leccion_18::lee_csv;

fn main() {
    let (csv, svg) = match opciones(std::env::args().skip(1)) {
        Ok(x) => x,
        Err(mensaje) => {
            eprintln!("error: {mensaje}");
            std::process::exit(2);
        }
    };
    let texto = match std::fs::read_to_string(&csv) {
        Ok(t) => t,
        Err(e) => {
            eprintln!(
                "error: no puedo leer {}: {e}. Genéralo antes con `cargo run -p leccion-18 --release`",
                csv.display()
            );
            std::process::exit(1);
        }
    };
    let filas = match lee_csv(&texto) {
        Ok(f) if !f.is_empty() => f,
        Ok(_) => {
            eprintln!("error: {} no tiene ninguna fila", csv.display());
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("error: {}: {e}", csv.display());
            std::process::exit(1);
        }
    };
    if let Some(carpeta) = svg.parent() {
        let _ = std::fs::create_dir_all(carpeta);
    }
    if let Err(e) = dibuja(&filas, &svg) {
        eprintln!("error: no pude dibujar {}: {e}", svg.display());
        std::process::exit(1);
    }
    println!("Gráfica escrita en {} ({} filas).", svg.display(), filas.len());
}
