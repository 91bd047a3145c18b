//! La gráfica de la lección: cuatro paneles (rendimiento, latencia p99, pico
//! de memoria y rechazos), con una barra por diseño en cada escenario. La
//! usa `cargo run -p leccion-14 --bin grafica-comparacion`.

use std::path::{Path, PathBuf};

use plotters::prelude::*;

use crate::{Escenario, Resultado, Variante, csv_por_defecto, svg_por_defecto};

/// `--csv RUTA` y `--svg RUTA`, con sus valores por defecto.
pub fn opciones(args: impl IntoIterator<Item = String>) -> Result<(PathBuf, PathBuf), String> {
    let (mut csv, mut svg) = (csv_por_defecto(), svg_por_defecto());
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--csv" => csv = PathBuf::from(args.next().ok_or("falta la ruta después de --csv")?),
            "--svg" => svg = PathBuf::from(args.next().ok_or("falta la ruta después de --svg")?),
            otro => return Err(format!("opción desconocida «{otro}»; usa --csv RUTA o --svg RUTA")),
        }
    }
    Ok((csv, svg))
}

fn color(v: Variante) -> RGBColor {
    match v {
        Variante::TokioSinLimite => RGBColor(0xc0, 0x39, 0x2b),
        Variante::TokioSemaforo => RGBColor(0x29, 0x80, 0xb9),
        Variante::Rayon => RGBColor(0xe6, 0x7e, 0x22),
        Variante::Nucleo => RGBColor(0x27, 0xae, 0x60),
    }
}

fn nombre_del_escenario(e: Escenario) -> &'static str {
    match e {
        Escenario::Uniforme => "claves al azar",
        Escenario::Caliente => "3 de cada 4 a una clave",
    }
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// Un panel: dos grupos de barras (un escenario cada uno), una barra por
/// diseño, con su valor encima.
fn panel(
    area: &Area,
    titulo: &str,
    filas: &[Resultado],
    valor: impl Fn(&Resultado) -> f64,
    texto: impl Fn(f64) -> String,
) -> Result<(), Box<dyn std::error::Error>> {
    let maximo = filas.iter().map(&valor).fold(0.0, f64::max).max(1e-9) * 1.2;
    let mut grafica = ChartBuilder::on(area)
        .caption(titulo, ("sans-serif", 17))
        .margin(10)
        .x_label_area_size(28)
        .y_label_area_size(55)
        .build_cartesian_2d(0f64..2f64, 0f64..maximo)?;
    grafica
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_labels(5)
        .y_label_formatter(&|y| texto(*y))
        .light_line_style(RGBColor(0xee, 0xee, 0xee))
        .draw()?;
    let ancho = 0.8 / Variante::TODAS.len() as f64;
    for (g, escenario) in Escenario::TODOS.into_iter().enumerate() {
        for (k, variante) in Variante::TODAS.into_iter().enumerate() {
            let Some(fila) = filas.iter().find(|f| f.variante == variante && f.escenario == escenario) else {
                continue;
            };
            let x0 = g as f64 + 0.1 + k as f64 * ancho;
            let y = valor(fila);
            grafica.draw_series(std::iter::once(Rectangle::new(
                [(x0, 0.0), (x0 + ancho * 0.9, y)],
                color(variante).filled(),
            )))?;
            grafica.draw_series(std::iter::once(Text::new(
                texto(y),
                (x0, y + maximo * 0.02),
                ("sans-serif", 11).into_font().color(&BLACK),
            )))?;
        }
        // El nombre del grupo, debajo del eje.
        let (px, py) = grafica.backend_coord(&(g as f64 + 0.3, 0.0));
        area.draw(&Text::new(nombre_del_escenario(escenario), (px, py + 8), ("sans-serif", 13).into_font()))?;
    }
    Ok(())
}

/// Dibuja las filas en un SVG.
pub fn dibuja(filas: &[Resultado], svg: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let raiz = SVGBackend::new(svg, (1000, 720)).into_drawing_area();
    raiz.fill(&WHITE)?;
    let (arriba, abajo) = raiz.split_vertically(660);
    let paneles = arriba.split_evenly((2, 2));
    let miles = |v: f64| format!("{:.0} mil", v / 1000.0);
    let ms = |v: f64| if v < 100.0 { format!("{v:.1} ms") } else { format!("{v:.0} ms") };
    let mib = |v: f64| format!("{v:.1} MiB");
    let pct = |v: f64| format!("{v:.0} %");
    panel(&paneles[0], "Peticiones completadas por segundo", filas, |f| f.rendimiento, miles)?;
    panel(&paneles[1], "Latencia p99", filas, |f| f.p99_us as f64 / 1000.0, ms)?;
    panel(&paneles[2], "Pico de memoria del proceso (VmHWM)", filas, |f| f.pico_mib.max(0.0), mib)?;
    panel(
        &paneles[3],
        "Peticiones rechazadas",
        filas,
        |f| 100.0 * f.rechazadas as f64 / f.ofrecidas.max(1) as f64,
        pct,
    )?;
    // La leyenda: un color por diseño.
    for (k, v) in Variante::TODAS.into_iter().enumerate() {
        let x = 20 + k as i32 * 245;
        abajo.draw(&Rectangle::new([(x, 25), (x + 18, 41)], color(v).filled()))?;
        abajo.draw(&Text::new(v.etiqueta(), (x + 24, 27), ("sans-serif", 14).into_font()))?;
    }
    raiz.present()?;
    Ok(())
}
