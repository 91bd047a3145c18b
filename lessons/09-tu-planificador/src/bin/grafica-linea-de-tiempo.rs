//! Dibuja `resultados/linea-de-tiempo.csv` (de `linea-de-tiempo`) en
//! `book/graficas/linea-de-tiempo.svg`: una fila por trabajador, un
//! rectángulo por sondeo (con el número de la tarea si cabe), los de tareas
//! robadas en otro color, más altos y con una «R» encima, y los sueños
//! rayados: el color nunca va solo.
//! Opciones: `--csv RUTA`, `--svg RUTA`.

use std::path::PathBuf;

use graficas::{Estilo, falla};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const ANCHO: u32 = 1200;
const ALTO: u32 = 500;

struct Sondeo {
    trabajador: usize,
    tarea: usize,
    inicio: f64,
    fin: f64,
    robada: bool,
}

fn main() {
    let programa = graficas::Programa::de_la_linea_de_ordenes(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("resultados/linea-de-tiempo.csv"),
        graficas::svg_del_libro(env!("CARGO_MANIFEST_DIR"), "linea-de-tiempo.svg"),
    );
    // Las líneas tal cual: cada una es un sondeo o un sueño, y se leen abajo.
    let lineas = programa.filas(
        |t| Ok(t.lines().skip(1).map(str::to_string).collect()),
        "cargo run --release -p leccion-09 --bin linea-de-tiempo",
    );
    let mut sondeos = Vec::new();
    let mut suenos = Vec::new();
    for (n, linea) in lineas.iter().enumerate().map(|(n, l)| (n + 1, l)) {
        let c: Vec<&str> = linea.split(',').collect();
        let num = |i: usize| -> f64 {
            c.get(i)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| falla(&format!("línea {}: campo {i} no es un número", n + 1)))
        };
        match c.first() {
            Some(&"sondeo") => sondeos.push(Sondeo {
                trabajador: num(1) as usize,
                tarea: num(2) as usize,
                inicio: num(3) / 1000.0,
                fin: num(4) / 1000.0,
                robada: c.get(5) == Some(&"true"),
            }),
            Some(&"sueno") => suenos.push((num(1) as usize, num(3) / 1000.0, num(4) / 1000.0)),
            _ => falla(&format!("línea {}: tipo desconocido", n + 1)),
        }
    }
    if sondeos.is_empty() {
        falla(&format!("{} no tiene ningún sondeo", programa.csv.display()));
    }
    programa.dibuja(|svg| dibuja(&sondeos, &suenos, svg));
    println!("Gráfica: {} ({} sondeos)", programa.svg.display(), sondeos.len());
}

const PROPIA: RGBColor = RGBColor(30, 100, 200);
const ROBADA: RGBColor = RGBColor(220, 110, 20);
const SUENO: RGBColor = RGBColor(228, 228, 228);
const RAYAS_DEL_SUENO: RGBColor = RGBColor(150, 150, 150);
/// Lo que sube y baja cada rectángulo desde la línea de su trabajador: los
/// robados, más.
const MEDIO_ALTO_PROPIA: f64 = 0.26;
const MEDIO_ALTO_ROBADA: f64 = 0.38;

fn dibuja(
    sondeos: &[Sondeo],
    suenos: &[(usize, f64, f64)],
    ruta: &std::path::Path,
) -> Result<(), Box<dyn std::error::Error>> {
    let estilo = Estilo::para(ANCHO);
    let trabajadores = sondeos.iter().map(|s| s.trabajador).chain(suenos.iter().map(|s| s.0)).max().unwrap_or(0) + 1;
    let fin = sondeos.iter().map(|s| s.fin).chain(suenos.iter().map(|s| s.2)).fold(0.0, f64::max);
    let raiz = SVGBackend::new(ruta, (ANCHO, ALTO)).into_drawing_area();
    raiz.fill(&WHITE)?;
    let mut grafica = ChartBuilder::on(&raiz)
        .caption("Qué sondea cada trabajador, y cuándo (una ejecución de verdad, 2 hilos)", estilo.titulo())
        .margin(14)
        .x_label_area_size(56)
        .y_label_area_size(130)
        .build_cartesian_2d(0.0..fin * 1.01, -1.5..trabajadores as f64 - 0.4)?;
    let mut malla = grafica.configure_mesh();
    estilo
        .malla(&mut malla)
        .disable_y_mesh()
        .x_desc("ms desde el arranque")
        .x_label_formatter(&|x| graficas::marca(*x))
        .y_labels(trabajadores + 2)
        .y_label_formatter(&|y| {
            if (y - y.round()).abs() < 1e-6 && *y >= 0.0 {
                format!("trabajador {}", y.round() as usize)
            } else {
                String::new()
            }
        })
        .draw()?;
    // Los sueños, rayados detrás (el rayado los distingue también en gris).
    grafica.draw_series(suenos.iter().map(|&(w, a, b)| {
        let y = w as f64;
        graficas::rayado([(a, y - 0.45), (b, y + 0.45)], SUENO, RAYAS_DEL_SUENO)
    }))?;
    let ancho_px = |a: f64, b: f64| (b - a) / (fin * 1.01) * f64::from(ANCHO - 170);
    // Dónde acaba la última «R» escrita en cada trabajador, para no escribir
    // dos encima una de otra si hay robos seguidos.
    let mut ultima_r = vec![f64::NEG_INFINITY; trabajadores];
    let encima = TextStyle::from(estilo.marcas().into_font()).color(&BLACK).pos(Pos::new(HPos::Center, VPos::Bottom));
    for s in sondeos {
        let y = s.trabajador as f64;
        let (color, medio_alto) = if s.robada { (ROBADA, MEDIO_ALTO_ROBADA) } else { (PROPIA, MEDIO_ALTO_PROPIA) };
        let caja = [(s.inicio, y - medio_alto), (s.fin, y + medio_alto)];
        grafica.draw_series(std::iter::once(Rectangle::new(caja, color.filled())))?;
        grafica.draw_series(std::iter::once(Rectangle::new(caja, WHITE.stroke_width(1))))?;
        let medio = (s.inicio + s.fin) / 2.0;
        if ancho_px(s.inicio, s.fin) >= 22.0 {
            let tinta = graficas::tinta(color);
            let letra =
                TextStyle::from(estilo.marcas().into_font()).color(&tinta).pos(Pos::new(HPos::Center, VPos::Center));
            grafica.draw_series(std::iter::once(Text::new(s.tarea.to_string(), (medio, y), letra)))?;
        }
        let x_px = ancho_px(0.0, medio);
        if s.robada && x_px - ultima_r[s.trabajador] >= 12.0 {
            ultima_r[s.trabajador] = x_px;
            grafica.draw_series(std::iter::once(Text::new(
                "R",
                (medio, y + MEDIO_ALTO_ROBADA + 0.02),
                encima.clone(),
            )))?;
        }
    }
    // La leyenda, a mano: tres muestras, como en la gráfica.
    let altos = [(MEDIO_ALTO_PROPIA / MEDIO_ALTO_ROBADA * 9.0).round() as i32, 9];
    for ((etiqueta, color, letra), medio_alto) in
        [("tarea propia", PROPIA, ""), ("R: tarea robada (más alta)", ROBADA, "R")].into_iter().zip(altos)
    {
        grafica
            .draw_series(std::iter::once(Rectangle::new([(0.0, -10.0), (0.0, -10.0)], color.filled())))?
            .label(etiqueta)
            .legend(move |p| graficas::muestra_con_letra(p, color, letra, medio_alto, &estilo));
    }
    grafica
        .draw_series(std::iter::once(Rectangle::new([(0.0, -10.0), (0.0, -10.0)], SUENO.filled())))?
        .label("durmiendo (rayado)")
        .legend(move |p| graficas::muestra_rayada(p, SUENO, RAYAS_DEL_SUENO));
    let mut leyenda = grafica.configure_series_labels();
    estilo
        .leyenda(&mut leyenda)
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    raiz.present()?;
    Ok(())
}
