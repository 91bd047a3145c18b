//! Dibuja el CSV de la lección 05: la peor latencia de las peticiones
//! ligeras en cada ventana de 10 ms, una línea por escenario.
//!
//! ```text
//! cargo run -p leccion-05 --bin grafica-latencia
//! cargo run -p leccion-05 --bin grafica-latencia -- --csv otra.csv --svg otra.svg
//! ```

use std::path::Path;

use plotters::prelude::*;

use leccion_05::{Escenario, csv_por_defecto, lee_csv, svg_por_defecto};

/// La serie de cada escenario en el estilo común: color, marcador y trazo
/// (el color nunca va solo). (b), la que se dispara, es la roja con círculos.
fn serie(escenario: Escenario) -> graficas::Serie {
    graficas::serie(match escenario {
        Escenario::SoloLigeras => 5,
        Escenario::DentroDeLaTarea => 0,
        Escenario::SpawnBlocking => 1,
        Escenario::Rayon => 2,
    })
}

fn dibuja(filas: &[(String, u64, f64)], svg: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let max_ms = filas.iter().map(|f| f.1).max().unwrap_or(1).max(1) as f64;
    let max_lat = filas.iter().map(|f| f.2).fold(1.0, f64::max) * 1.45;
    // El estilo común del libro: letra legible en la columna, coma decimal.
    let estilo = graficas::Estilo::para(800);
    let raiz = SVGBackend::new(svg, (800, 450)).into_drawing_area();
    raiz.fill(&WHITE)?;
    let mut grafica = ChartBuilder::on(&raiz)
        .caption("Peor latencia de las peticiones ligeras, por ventana de 10 ms", estilo.titulo())
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..max_ms, 0f64..max_lat)?;
    estilo
        .malla(&mut grafica.configure_mesh())
        .x_label_formatter(&|x| graficas::numero(*x, 0))
        .y_label_formatter(&|y| graficas::numero(*y, 0))
        .light_line_style(RGBColor(0xee, 0xee, 0xee))
        .x_desc("llegada desde el inicio del escenario (ms)")
        .y_desc("peor latencia en la ventana (ms)")
        .draw()?;
    for escenario in Escenario::TODOS {
        let puntos: Vec<(f64, f64)> =
            filas.iter().filter(|f| f.0 == escenario.nombre()).map(|f| (f.1 as f64, f.2)).collect();
        if puntos.is_empty() {
            continue;
        }
        let s = serie(escenario);
        grafica.draw_series(s.linea(puntos))?.label(escenario.etiqueta()).legend(move |p| s.muestra(p));
    }
    estilo
        .leyenda(&mut grafica.configure_series_labels())
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    raiz.present()?;
    Ok(())
}

fn main() {
    let programa = graficas::Programa::de_la_linea_de_ordenes(csv_por_defecto(), svg_por_defecto());
    let filas = programa.filas(lee_csv, "cargo run -p leccion-05 --release");
    programa.dibuja(|svg| dibuja(&filas, svg));
    println!("Gráfica escrita en {} ({} ventanas).", programa.svg.display(), filas.len());
}
