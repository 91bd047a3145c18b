//! Dibuja el CSV de `banco` como un SVG: un panel por carga, una línea por
//! ejecutor (y por máquina, si el CSV trae varias).
//!
//! ```text
//! cargo run -p leccion-09 --release --bin grafica-escalado
//! cargo run -p leccion-09 --bin grafica-escalado -- --csv otro.csv --svg otra.svg
//! ```

use std::collections::BTreeSet;

use leccion_09::{Fila, lee_csv, lee_opciones_grafica};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const ORDEN_CARGAS: [&str; 4] = ["lanza-muchas", "abanico", "cede-muchas", "calculo-corto"];
const ORDEN_EJECUTORES: [&str; 3] = ["una-cola", "robo", "tokio"];

fn main() {
    let opciones = match lee_opciones_grafica(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(mensaje) => {
            eprintln!("error: {mensaje}");
            std::process::exit(2);
        }
    };
    let filas = match std::fs::read_to_string(&opciones.csv).map_err(|e| e.to_string()).and_then(|t| lee_csv(&t)) {
        Ok(f) if !f.is_empty() => f,
        Ok(_) => falla(&format!("{} no tiene ninguna medida", opciones.csv.display())),
        Err(e) => falla(&format!("no puedo leer {}: {e}", opciones.csv.display())),
    };
    if let Some(carpeta) = opciones.svg.parent().filter(|p| !p.as_os_str().is_empty()) {
        let _ = std::fs::create_dir_all(carpeta);
    }
    if let Err(e) = dibuja(&filas, &opciones.svg) {
        falla(&format!("no puedo dibujar {}: {e}", opciones.svg.display()));
    }
    let maquinas: BTreeSet<(&str, usize)> = filas.iter().map(|f| (f.maquina.as_str(), f.nucleos)).collect();
    println!("Gráfica: {} ({} medidas de {} máquina(s))", opciones.svg.display(), filas.len(), maquinas.len());
}

fn falla(mensaje: &str) -> ! {
    eprintln!("error: {mensaje}");
    std::process::exit(1);
}

fn color(ejecutor: &str) -> RGBColor {
    match ejecutor {
        "una-cola" => RGBColor(200, 60, 40),
        "robo" => RGBColor(30, 100, 200),
        "tokio" => RGBColor(40, 150, 70),
        _ => RGBColor(90, 90, 90),
    }
}

// ANCHOR: dibuja
fn dibuja(filas: &[Fila], ruta: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
    let raiz = SVGBackend::new(ruta, (1000, 780)).into_drawing_area();
    raiz.fill(&WHITE)?;
    let (cabecera, paneles) = raiz.split_vertically(70);
    let titulo = "Tiempo de cada carga según los hilos trabajadores (mediana, ms; menos es mejor)";
    let centrado = TextStyle::from(("sans-serif", 20).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
    cabecera.draw(&Text::new(titulo, (500, 8), centrado))?;
    let maquinas: Vec<(String, usize)> = {
        let mut m: Vec<(String, usize)> = filas.iter().map(|f| (f.maquina.clone(), f.nucleos)).collect();
        m.sort_by_key(|(_, n)| *n);
        m.dedup();
        m
    };
    // Una sola leyenda, en la cabecera: un color por ejecutor.
    for (i, ejecutor) in ORDEN_EJECUTORES.iter().enumerate() {
        let x = 330 + 130 * i as i32;
        cabecera.draw(&PathElement::new(vec![(x, 48), (x + 28, 48)], color(ejecutor).stroke_width(3)))?;
        cabecera.draw(&Text::new(*ejecutor, (x + 34, 41), ("sans-serif", 15)))?;
    }
    if maquinas.len() > 1 {
        let nota = "línea gruesa: la máquina con menos núcleos";
        cabecera.draw(&Text::new(nota, (720, 41), ("sans-serif", 13)))?;
    }
    let mut cargas: Vec<&str> = ORDEN_CARGAS.iter().copied().filter(|c| filas.iter().any(|f| f.carga == *c)).collect();
    cargas
        .extend(filas.iter().map(|f| f.carga.as_str()).filter(|c| !ORDEN_CARGAS.contains(c)).collect::<BTreeSet<_>>());
    for (panel, carga) in paneles.split_evenly((2, 2)).iter().zip(cargas) {
        let del_panel: Vec<&Fila> = filas.iter().filter(|f| f.carga == carga).collect();
        let max_hilos = del_panel.iter().map(|f| f.hilos).max().unwrap_or(1).max(2);
        let max_ms = del_panel.iter().map(|f| f.ms).fold(0.0, f64::max) * 1.15;
        let mut grafica = ChartBuilder::on(panel)
            .caption(carga, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(52)
            .build_cartesian_2d(1usize..max_hilos, 0.0..max_ms.max(1.0))?;
        grafica
            .configure_mesh()
            .x_desc("hilos trabajadores")
            .y_desc("ms")
            .x_labels(max_hilos.min(16))
            .y_labels(6)
            .draw()?;
        for (m, (maquina, nucleos)) in maquinas.iter().enumerate() {
            for ejecutor in ORDEN_EJECUTORES {
                let mut puntos: Vec<(usize, f64)> = del_panel
                    .iter()
                    .filter(|f| f.ejecutor == ejecutor && &f.maquina == maquina && f.nucleos == *nucleos)
                    .map(|f| (f.hilos, f.ms))
                    .collect();
                if puntos.is_empty() {
                    continue;
                }
                puntos.sort_by_key(|p| p.0);
                let estilo = color(ejecutor).stroke_width(if m == 0 { 3 } else { 1 });
                grafica.draw_series(LineSeries::new(puntos, estilo).point_size(3))?;
            }
        }
    }
    raiz.present()?;
    Ok(())
}
// ANCHOR_END: dibuja
