//! Dibuja el CSV de `tarea-frente-a-hilo`: la memoria residente que añaden N
//! hilos dormidos y N tareas dormidas.
//!
//! ```text
//! cargo run -p leccion-06 --bin grafica-tarea-hilo
//! cargo run -p leccion-06 --bin grafica-tarea-hilo -- --csv otra.csv --svg otra.svg
//! ```

use std::path::Path;

use plotters::prelude::*;

use leccion_06::{csv_tarea_hilo, lee_csv_tarea_hilo, svg_tarea_hilo};

fn dibuja(filas: &[(String, u64, f64)], svg: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let max_n = filas.iter().map(|f| f.1).max().unwrap_or(1).max(1) as f64;
    let max_mib = filas.iter().map(|f| f.2 / 1024.0).fold(1.0, f64::max) * 1.25;
    // El estilo común del libro: letra legible en la columna, coma decimal.
    let estilo = graficas::Estilo::para(800);
    let raiz = SVGBackend::new(svg, (800, 450)).into_drawing_area();
    raiz.fill(&WHITE)?;
    let mut grafica = ChartBuilder::on(&raiz)
        .caption("Memoria residente que añaden N hilos o N tareas dormidas", estilo.titulo())
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..max_n * 1.05, 0f64..max_mib)?;
    estilo
        .malla(&mut grafica.configure_mesh())
        .x_label_formatter(&|x| graficas::numero(*x, 0))
        .y_label_formatter(&|y| graficas::numero(*y, 0))
        .light_line_style(RGBColor(0xee, 0xee, 0xee))
        .x_desc("N (hilos o tareas vivos a la vez)")
        .y_desc("memoria residente añadida (MiB)")
        .draw()?;
    // El estilo común: cada serie, su color, su marcador y su trazo (el color nunca va solo).
    for (tipo, etiqueta, s) in [
        ("hilos", "hilos del sistema (pila por defecto)", graficas::serie(0)),
        ("tareas", "tareas de Tokio", graficas::serie(2)),
    ] {
        let puntos: Vec<(f64, f64)> =
            filas.iter().filter(|f| f.0 == tipo).map(|f| (f.1 as f64, f.2 / 1024.0)).collect();
        grafica.draw_series(s.linea(puntos).grosor(3))?.label(etiqueta).legend(move |p| s.muestra(p));
    }
    estilo
        .leyenda(&mut grafica.configure_series_labels())
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    raiz.present()?;
    Ok(())
}

fn main() {
    let programa = graficas::Programa::de_la_linea_de_ordenes(csv_tarea_hilo(), svg_tarea_hilo());
    let filas = programa.filas(lee_csv_tarea_hilo, "cargo run -p leccion-06 --release --bin tarea-frente-a-hilo");
    programa.dibuja(|svg| dibuja(&filas, svg));
    println!("Gráfica escrita en {} ({} puntos).", programa.svg.display(), filas.len());
}
