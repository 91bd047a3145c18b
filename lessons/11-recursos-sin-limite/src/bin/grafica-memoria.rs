//! Dibuja el CSV de la lección 11: memoria residente frente al tiempo, una
//! línea por escenario.
//!
//! ```text
//! cargo run -p leccion-11 --bin grafica-memoria
//! cargo run -p leccion-11 --bin grafica-memoria -- --csv otra.csv --svg otra.svg
//! ```

use std::path::Path;

use plotters::prelude::*;

use leccion_11::{Escenario, Fila, csv_por_defecto, lee_csv, svg_por_defecto};

/// La serie de cada escenario en el estilo común: color, marcador y trazo
/// (el color nunca va solo).
fn serie(escenario: &str) -> graficas::Serie {
    graficas::serie(match Escenario::desde_nombre(escenario) {
        Some(Escenario::SinLimite) => 0,
        Some(Escenario::Semaforo) => 1,
        Some(Escenario::ColaAcotada) => 2,
        None => 5,
    })
}

fn dibuja(filas: &[Fila], svg: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let max_ms = filas.iter().map(|f| f.ms).max().unwrap_or(1).max(1) as f64;
    let max_mib = filas.iter().map(|f| f.rss_mib).fold(1.0, f64::max) * 1.1;
    // El estilo común del libro: letra legible en la columna, coma decimal.
    let estilo = graficas::Estilo::para(800);
    let raiz = SVGBackend::new(svg, (800, 450)).into_drawing_area();
    raiz.fill(&WHITE)?;
    let mut grafica = ChartBuilder::on(&raiz)
        .caption("Memoria residente durante un pico de tráfico", estilo.titulo())
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..max_ms, 0f64..max_mib)?;
    estilo
        .malla(&mut grafica.configure_mesh())
        .x_label_formatter(&|x| graficas::numero(*x, 0))
        .y_label_formatter(&|y| graficas::numero(*y, 0))
        .light_line_style(RGBColor(0xee, 0xee, 0xee))
        .x_desc("tiempo desde el inicio (ms)")
        .y_desc("memoria residente (MiB)")
        .draw()?;
    let mut vistos: Vec<&str> = Vec::new();
    for fila in filas {
        if !vistos.contains(&fila.escenario.as_str()) {
            vistos.push(&fila.escenario);
        }
    }
    for nombre in vistos {
        let puntos: Vec<(f64, f64)> =
            filas.iter().filter(|f| f.escenario == nombre).map(|f| (f.ms as f64, f.rss_mib)).collect();
        let s = serie(nombre);
        let etiqueta = Escenario::desde_nombre(nombre).map_or(nombre.to_string(), |e| e.etiqueta().to_string());
        grafica.draw_series(s.linea(puntos).grosor(3))?.label(etiqueta).legend(move |p| s.muestra(p));
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
    let filas = programa.filas(lee_csv, "cargo run -p leccion-11 --release");
    programa.dibuja(|svg| dibuja(&filas, svg));
    println!("Gráfica escrita en {} ({} muestras).", programa.svg.display(), filas.len());
}
