//! Dibuja el CSV de `banco` como un SVG: por carga, un panel con el tiempo de
//! reloj y otro con la CPU de los hilos trabajadores; una línea por ejecutor
//! (y por máquina, si el CSV trae varias), con la mediana y una barra del
//! mínimo al máximo.
//!
//! ```text
//! cargo run -p leccion-09 --release --bin grafica-escalado
//! cargo run -p leccion-09 --bin grafica-escalado -- --csv otro.csv --svg otra.svg
//! ```

use std::collections::BTreeSet;

use leccion_09::{Fila, csv_por_defecto, lee_csv, svg_por_defecto};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const ORDEN_CARGAS: [&str; 4] = ["lanza-muchas", "abanico", "cede-muchas", "calculo-corto"];
const ORDEN_EJECUTORES: [&str; 3] = ["una-cola", "robo", "tokio"];

fn main() {
    let programa = graficas::Programa::de_la_linea_de_ordenes(csv_por_defecto(), svg_por_defecto());
    let filas = programa.filas(lee_csv, "cargo run -p leccion-09 --release --bin banco");
    programa.dibuja(|svg| dibuja(&filas, svg));
    let maquinas: BTreeSet<(&str, usize)> = filas.iter().map(|f| (f.maquina.as_str(), f.nucleos)).collect();
    println!("Gráfica: {} ({} medidas de {} máquina(s))", programa.svg.display(), filas.len(), maquinas.len());
}

/// La serie de cada ejecutor en el estilo común: color, marcador y trazo
/// (el color nunca va solo).
fn serie(ejecutor: &str) -> graficas::Serie {
    graficas::serie(match ejecutor {
        "una-cola" => 0,
        "robo" => 1,
        "tokio" => 2,
        _ => 5,
    })
}

// ANCHOR: dibuja
fn dibuja(filas: &[Fila], ruta: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
    // El estilo común del libro: letra legible en la columna, coma decimal.
    let estilo = graficas::Estilo::para(1000);
    let raiz = SVGBackend::new(ruta, (1000, 1340)).into_drawing_area();
    raiz.fill(&WHITE)?;
    let (cabecera, paneles) = raiz.split_vertically(120);
    let titulo = "Cada carga según los hilos trabajadores: mediana y [mínimo-máximo], ms; menos es mejor";
    let centrado = TextStyle::from(estilo.titulo().into_font()).pos(Pos::new(HPos::Center, VPos::Top));
    cabecera.draw(&Text::new(titulo, (500, 8), centrado.clone()))?;
    let subtitulo = "izquierda: tiempo de reloj; derecha: CPU sumada de los hilos trabajadores";
    let pequeno = TextStyle::from(estilo.rotulos().into_font()).pos(Pos::new(HPos::Center, VPos::Top));
    cabecera.draw(&Text::new(subtitulo, (500, 38), pequeno))?;
    let maquinas: Vec<(String, usize)> = {
        let mut m: Vec<(String, usize)> = filas.iter().map(|f| (f.maquina.clone(), f.nucleos)).collect();
        m.sort_by_key(|(_, n)| *n);
        m.dedup();
        m
    };
    // Una sola leyenda, en la cabecera: el color, el marcador y el trazo de cada ejecutor.
    for (i, ejecutor) in ORDEN_EJECUTORES.iter().enumerate() {
        let x = 240 + 175 * i as i32;
        cabecera.draw(&serie(ejecutor).muestra((x, 80)))?;
        cabecera.draw(&Text::new(*ejecutor, (x + graficas::series::MUESTRA_PX + 8, 70), estilo.rotulos()))?;
    }
    if maquinas.len() > 1 {
        let nota = "línea gruesa: la máquina con menos núcleos";
        let centrada = TextStyle::from(estilo.rotulos().into_font()).pos(Pos::new(HPos::Center, VPos::Top));
        cabecera.draw(&Text::new(nota, (500, 96), centrada))?;
    }
    let mut cargas: Vec<&str> = ORDEN_CARGAS.iter().copied().filter(|c| filas.iter().any(|f| f.carga == *c)).collect();
    cargas
        .extend(filas.iter().map(|f| f.carga.as_str()).filter(|c| !ORDEN_CARGAS.contains(c)).collect::<BTreeSet<_>>());
    let filas_de_paneles = paneles.split_evenly((cargas.len().max(1), 2));
    for (k, carga) in cargas.iter().enumerate() {
        let del_panel: Vec<&Fila> = filas.iter().filter(|f| f.carga == *carga).collect();
        let max_hilos = del_panel.iter().map(|f| f.hilos).max().unwrap_or(1).max(2);
        for (columna, cpu) in [(0, false), (1, true)] {
            let panel = &filas_de_paneles[2 * k + columna];
            // (mediana, mínimo, máximo) de lo que dibuja este panel.
            let valor = |f: &Fila| if cpu { (f.cpu_ms, f.cpu_min, f.cpu_max) } else { (f.ms, f.ms_min, f.ms_max) };
            let max_ms = del_panel.iter().map(|f| valor(f).2).fold(0.0, f64::max) * 1.15;
            let nombre = if cpu { format!("{carga}: CPU de los trabajadores") } else { format!("{carga}: reloj") };
            let mut grafica = ChartBuilder::on(panel)
                .caption(nombre, estilo.titulo_de_panel())
                .margin(10)
                .x_label_area_size(48)
                .y_label_area_size(80)
                .build_cartesian_2d(0.7f64..max_hilos as f64 + 0.3, 0.0..max_ms.max(1.0))?;
            estilo
                .malla(&mut grafica.configure_mesh())
                .x_desc("hilos trabajadores")
                .y_desc("ms")
                .x_labels(max_hilos.min(16) + 1)
                .x_label_formatter(&|x| if x.fract() == 0.0 { format!("{x:.0}") } else { String::new() })
                .y_labels(5)
                .y_label_formatter(&|y| graficas::marca(*y))
                .draw()?;
            for (m, (maquina, nucleos)) in maquinas.iter().enumerate() {
                for (e, ejecutor) in ORDEN_EJECUTORES.iter().enumerate() {
                    // Cada ejecutor, un poco desplazado para que no se tapen las barras.
                    let dx = (e as f64 - 1.0) * 0.06;
                    let mut puntos: Vec<(f64, (f64, f64, f64))> = del_panel
                        .iter()
                        .filter(|f| f.ejecutor == *ejecutor && &f.maquina == maquina && f.nucleos == *nucleos)
                        .map(|f| (f.hilos as f64 + dx, valor(f)))
                        .collect();
                    if puntos.is_empty() {
                        continue;
                    }
                    puntos.sort_by(|a, b| a.0.total_cmp(&b.0));
                    let serie = serie(ejecutor);
                    let grosor = if m == 0 { 2 } else { 1 };
                    // La barra, del mínimo al máximo; encima, la línea de las
                    // medianas, con el marcador del ejecutor en cada una.
                    let estilo = serie.color.stroke_width(grosor);
                    grafica.draw_series(
                        puntos.iter().map(|(x, (_, min, max))| PathElement::new(vec![(*x, *min), (*x, *max)], estilo)),
                    )?;
                    grafica.draw_series(serie.linea(puntos.iter().map(|(x, v)| (*x, v.0))).grosor(grosor))?;
                }
            }
        }
    }
    raiz.present()?;
    Ok(())
}
// ANCHOR_END: dibuja
