//! La gráfica de la lección: cuatro paneles (rendimiento, latencia p99, pico
//! de memoria y rechazos), con una barra por variante en cada escenario. La
//! barra es la mediana de las repeticiones, y la raya negra encima va del
//! mínimo al máximo. La usa `cargo run -p leccion-14 --bin grafica-comparacion`.

use std::path::Path;

use plotters::prelude::*;

use crate::{Escenario, Resultado, Variante};

/// La serie de cada variante en el estilo común: su color y, dentro de cada
/// barra, su marcador (el color nunca va solo).
fn serie(v: Variante) -> graficas::Serie {
    graficas::serie(match v {
        Variante::TokioSinLimite => 0,
        Variante::TokioSemaforo => 1,
        Variante::TokioSemaforoMitad => 3,
        Variante::Rayon => 4,
        Variante::Nucleo => 2,
    })
}

fn nombre_del_escenario(e: Escenario) -> &'static str {
    match e {
        Escenario::Uniforme => "claves al azar",
        Escenario::Caliente => "3 de cada 4 a una clave",
        Escenario::Variable => "cálculo variable",
    }
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// El ancho del SVG; el estilo común del libro (`graficas`) ajusta a él la
/// letra para que, escalada a la columna, no baje de 11 px.
const ANCHO: u32 = 800;

/// Mediana, mínimo y máximo de `valor` en las filas de una variante y un
/// escenario; `None` si no hay ninguna.
fn resumen(filas: &[Resultado], v: Variante, e: Escenario, valor: &impl Fn(&Resultado) -> f64) -> Option<[f64; 3]> {
    let xs: Vec<f64> = filas.iter().filter(|f| f.variante == v && f.escenario == e).map(valor).collect();
    medidas::mediana_y_extremos(&xs).map(|(mediana, minimo, maximo)| [mediana, minimo, maximo])
}

/// Un panel: un grupo de barras por escenario, una barra por variante (la
/// mediana), con su rango encima.
fn panel(
    area: &Area,
    titulo: &str,
    filas: &[Resultado],
    valor: impl Fn(&Resultado) -> f64,
    texto: impl Fn(f64) -> String,
) -> Result<(), Box<dyn std::error::Error>> {
    let estilo = graficas::Estilo::para(ANCHO);
    // Hueco encima de las barras para los valores, escritos en vertical.
    let maximo = filas.iter().map(&valor).fold(0.0, f64::max).max(1e-9) * 1.45;
    let grupos = Escenario::TODOS.len();
    let mut grafica = ChartBuilder::on(area)
        .caption(titulo, estilo.titulo_de_panel())
        .margin(10)
        .x_label_area_size(45)
        .y_label_area_size(80)
        .build_cartesian_2d(0f64..grupos as f64, 0f64..maximo)?;
    estilo
        .malla(&mut grafica.configure_mesh())
        .disable_x_mesh()
        .x_labels(0)
        .y_labels(5)
        .y_label_formatter(&|y| texto(*y))
        .light_line_style(RGBColor(0xee, 0xee, 0xee))
        .draw()?;
    let ancho = 0.8 / Variante::TODAS.len() as f64;
    // El marcador de cada variante va al pie de su barra: el valor se
    // escribe encima de la barra y, si es muy baja, encima del marcador.
    let alto_del_marcador = graficas::series::RADIO as i32 + 4;
    let por_px = {
        let ((_, cero), (_, arriba)) = (grafica.backend_coord(&(0.0, 0.0)), grafica.backend_coord(&(0.0, maximo)));
        maximo / f64::from((cero - arriba).max(1))
    };
    let sobre_el_marcador = f64::from(2 * alto_del_marcador + 2) * por_px;
    for (g, escenario) in Escenario::TODOS.into_iter().enumerate() {
        for (k, variante) in Variante::TODAS.into_iter().enumerate() {
            let Some([y, min, max]) = resumen(filas, variante, escenario, &valor) else {
                continue;
            };
            let x0 = g as f64 + 0.1 + k as f64 * ancho;
            let s = serie(variante);
            grafica
                .draw_series(std::iter::once(Rectangle::new([(x0, 0.0), (x0 + ancho * 0.9, y)], s.color.filled())))?;
            let centro = x0 + ancho * 0.45;
            grafica.draw_series(std::iter::once(PathElement::new(vec![(centro, min), (centro, max)], BLACK)))?;
            // El marcador de la variante, al pie de la barra: se ve aunque la barra mida cero.
            grafica.draw_series(s.marca_clara((centro, 0.0)).desplazada(0, -alto_del_marcador))?;
            grafica.draw_series(std::iter::once(Text::new(
                texto(y),
                (centro - ancho * 0.25, (max + maximo * 0.02).max(sobre_el_marcador)),
                estilo.marcas().into_font().transform(FontTransform::Rotate270).color(&BLACK),
            )))?;
        }
        // El nombre del grupo, debajo del eje.
        // (backend_coord da la posición en todo el SVG; `area.draw`, relativa al panel).
        let (px, py) = grafica.backend_coord(&(g as f64 + 0.25, 0.0));
        let (bx, by) = area.get_base_pixel();
        area.draw(&Text::new(nombre_del_escenario(escenario), (px - bx, py - by + 8), estilo.rotulos().into_font()))?;
    }
    Ok(())
}

/// Dibuja las filas en un SVG.
pub fn dibuja(filas: &[Resultado], svg: &Path) -> Result<(), Box<dyn std::error::Error>> {
    // Un panel debajo de otro: a 800 de ancho, la letra se lee en la columna del libro.
    let estilo = graficas::Estilo::para(ANCHO);
    let raiz = SVGBackend::new(svg, (ANCHO, 1480)).into_drawing_area();
    raiz.fill(&WHITE)?;
    let (arriba, abajo) = raiz.split_vertically(1400);
    let paneles = arriba.split_evenly((4, 1));
    let miles = |v: f64| format!("{} mil", graficas::numero(v / 1000.0, 0));
    let ms = |v: f64| {
        if v < 100.0 { format!("{} ms", graficas::numero(v, 1)) } else { format!("{} ms", graficas::numero(v, 0)) }
    };
    let mib = |v: f64| format!("{} MiB", graficas::numero(v, 1));
    let pct = |v: f64| format!("{} %", graficas::numero(v, 0));
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
    // La leyenda: el color y el marcador de cada diseño, como en las barras.
    for (k, v) in Variante::TODAS.into_iter().enumerate() {
        let (x, y) = (20 + (k % 3) as i32 * 260, 8 + (k / 3) as i32 * 30);
        abajo.draw(&serie(v).muestra_de_barra((x - 4, y + 9)))?;
        abajo.draw(&Text::new(v.etiqueta(), (x + 38, y), estilo.rotulos().into_font()))?;
    }
    raiz.present()?;
    Ok(())
}
