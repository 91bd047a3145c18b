//! La gráfica de la lección: la latencia p99 frente a la carga ofrecida, una
//! línea por servidor (la mediana de las repeticiones) y, en cada punto, una
//! raya del mínimo al máximo. El eje de la latencia es logarítmico.

use std::path::Path;

use plotters::prelude::*;

use crate::{Fila, Servidor, resumen};

/// La serie de cada servidor en el estilo común: color, marcador y trazo
/// (el color nunca va solo).
fn serie(s: Servidor) -> graficas::Serie {
    graficas::serie(match s {
        Servidor::TokioMultihilo => 0,
        Servidor::TokioPorNucleo => 1,
        Servidor::UringPorNucleo => 2,
    })
}

/// Dibuja las filas en un SVG.
pub fn dibuja(filas: &[Fila], svg: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let mut ritmos: Vec<u64> = filas.iter().map(|f| f.ritmo).collect();
    ritmos.sort_unstable();
    ritmos.dedup();
    let x_max = *ritmos.last().unwrap_or(&1) as f64 * 1.1;
    let ms = |f: &Fila| (f.p99_us as f64 / 1000.0).max(0.01);
    let y_max = filas.iter().map(ms).fold(0.1, f64::max) * 2.0;
    let y_min = filas.iter().map(ms).fold(f64::INFINITY, f64::min).min(y_max) / 2.0;
    let estilo = graficas::Estilo::para(800);
    let raiz = SVGBackend::new(svg, (800, 480)).into_drawing_area();
    raiz.fill(&WHITE)?;
    let mut grafica = ChartBuilder::on(&raiz)
        .caption("Latencia p99 frente a la carga ofrecida (mediana y rango de las repeticiones)", estilo.titulo())
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..x_max, (y_min..y_max).log_scale())?;
    estilo
        .malla(&mut grafica.configure_mesh())
        .x_label_formatter(&|x| graficas::numero(*x, 0))
        .y_label_formatter(&|y| graficas::marca(*y))
        .light_line_style(RGBColor(0xee, 0xee, 0xee))
        .x_desc("carga ofrecida (peticiones por segundo)")
        .y_desc("p99 (ms, escala logarítmica)")
        .draw()?;
    for (k, s) in Servidor::TODOS.into_iter().enumerate() {
        // Cada servidor, un poco desplazado, para que las rayas no se tapen.
        let dx = (k as f64 - 1.0) * x_max * 0.008;
        let puntos: Vec<(f64, [f64; 3])> = ritmos
            .iter()
            .filter_map(|&r| {
                resumen(filas.iter().filter(|f| f.servidor == s && f.ritmo == r).map(ms).collect())
                    .map(|v| (r as f64 + dx, v))
            })
            .collect();
        if puntos.is_empty() {
            continue;
        }
        let serie = serie(s);
        let c = serie.color;
        // Las rayas del mínimo al máximo, debajo; encima, la línea de las
        // medianas con el marcador de la serie en cada una.
        grafica.draw_series(
            puntos.iter().map(|(x, v)| PathElement::new(vec![(*x, v[1]), (*x, v[2])], c.stroke_width(2))),
        )?;
        grafica
            .draw_series(serie.linea(puntos.iter().map(|(x, v)| (*x, v[0]))))?
            .label(s.etiqueta())
            .legend(move |p| serie.muestra(p));
    }
    estilo
        .leyenda(&mut grafica.configure_series_labels())
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    raiz.present()?;
    Ok(())
}
