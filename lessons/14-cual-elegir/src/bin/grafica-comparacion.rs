//! Dibuja el CSV de la lección 14 en `book/graficas/comparacion.svg`.
//!
//! ```text
//! cargo run -p leccion-14 --bin grafica-comparacion
//! cargo run -p leccion-14 --bin grafica-comparacion -- --csv otra.csv --svg otra.svg
//! ```

use leccion_14::grafica::dibuja;
use leccion_14::{csv_por_defecto, lee_csv, svg_por_defecto};

fn main() {
    let programa = graficas::Programa::de_la_linea_de_ordenes(csv_por_defecto(), svg_por_defecto());
    let filas = programa.filas(lee_csv, "cargo run -p leccion-14 --release");
    programa.dibuja(|svg| dibuja(&filas, svg));
    println!("Gráfica escrita en {} ({} filas).", programa.svg.display(), filas.len());
}
