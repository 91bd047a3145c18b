//! Dibuja el CSV de la lección 18 en `book/graficas/latencia-carga.svg`.
//!
//! ```text
//! cargo run -p leccion-18 --bin grafica-latencia-carga
//! cargo run -p leccion-18 --bin grafica-latencia-carga -- --csv otra.csv --svg otra.svg
//! ```

use leccion_18::grafica::dibuja;
use leccion_18::{csv_por_defecto, lee_csv, svg_por_defecto};

fn main() {
    let programa = graficas::Programa::de_la_linea_de_ordenes(csv_por_defecto(), svg_por_defecto());
    let filas = programa.filas(lee_csv, "cargo run -p leccion-18 --release");
    programa.dibuja(|svg| dibuja(&filas, svg));
    println!("Gráfica escrita en {} ({} filas).", programa.svg.display(), filas.len());
}
