//! La línea de tiempo de una ejecución grabada: una fila por trabajador y un
//! rectángulo por sondeo, del color (y con la letra) de cómo le llegó la
//! tarea al trabajador; rayados en gris, los ratos en que dormía. La
//! leyenda enseña lo mismo: cada color con su letra dentro y el rayado. La
//! dibujan los programas `grafica-tokio-*` con el estilo común de `graficas`.

use std::path::Path;

use graficas::Estilo;
use opciones::clap::{self, Parser};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::LineaDeTiempo;

/// Ancho y alto del SVG.
pub const ANCHO: u32 = 900;
pub const ALTO: u32 = 440;

/// Cómo llegó cada tarea, con su color y la letra que la acompaña si cabe:
/// el color nunca va solo. Los cuatro colores se distinguen también en gris
/// (de más oscuro a más claro: ranura, cola local, global, robada).
pub const CLASES: [(&str, &str, &str, RGBColor); 4] = [
    ("sondea", "C", "de su cola local", RGBColor(50, 100, 200)),
    ("robo", "R", "robada", RGBColor(250, 185, 50)),
    ("global", "G", "de la cola global", RGBColor(110, 190, 120)),
    ("ranura", "L", "de la ranura LIFO", RGBColor(60, 20, 80)),
];

const SUENO: RGBColor = RGBColor(228, 228, 228);
const RAYAS_DEL_SUENO: RGBColor = RGBColor(150, 150, 150);

fn clase(como: &str) -> (&'static str, RGBColor) {
    let c = CLASES.iter().find(|c| c.0 == como).unwrap_or(&CLASES[0]);
    (c.1, c.3)
}

/// Dibuja `l` en `ruta` con el título `titulo`.
pub fn dibuja(l: &LineaDeTiempo, titulo: &str, ruta: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let estilo = Estilo::para(ANCHO);
    let fin = l.fin_ms.max(0.001);
    let raiz = SVGBackend::new(ruta, (ANCHO, ALTO)).into_drawing_area();
    raiz.fill(&WHITE)?;
    let mut grafica = ChartBuilder::on(&raiz)
        .caption(titulo, estilo.titulo())
        .margin(14)
        .x_label_area_size(56)
        .y_label_area_size(120)
        .build_cartesian_2d(0.0..fin * 1.01, -2.4..l.trabajadores as f64 - 0.4)?;
    let mut malla = grafica.configure_mesh();
    estilo
        .malla(&mut malla)
        .disable_y_mesh()
        .x_desc("ms desde que empieza la grabación")
        .x_labels(6)
        .x_label_formatter(&|x| graficas::marca(*x))
        .y_labels(l.trabajadores + 4)
        .y_label_formatter(&|y| {
            if (y - y.round()).abs() < 1e-6 && *y >= 0.0 {
                format!("trabajador {}", y.round() as usize)
            } else {
                String::new()
            }
        })
        .draw()?;
    grafica.draw_series(l.suenos.iter().map(|&(w, a, b)| {
        let y = w as f64;
        graficas::rayado([(a, y - 0.42), (b, y + 0.42)], SUENO, RAYAS_DEL_SUENO)
    }))?;
    // Lo que mide un milisegundo en píxeles de la zona de dibujo (más o menos).
    let px_por_ms = f64::from(ANCHO - 150) / (fin * 1.01);
    let centrada = Pos::new(HPos::Center, VPos::Center);
    for s in &l.sondeos {
        let y = s.trabajador as f64;
        let (marca, color) = clase(s.como);
        // Un sondeo muy corto se dibuja con un ancho mínimo, para que se vea.
        let fin_visible = s.fin_ms.max(s.inicio_ms + 1.5 / px_por_ms);
        let caja = [(s.inicio_ms, y - 0.3), (fin_visible, y + 0.3)];
        grafica.draw_series(std::iter::once(Rectangle::new(caja, color.filled())))?;
        // La letra de cómo llegó y el número de la tarea. En un sondeo
        // estrecho, la letra va encima y el número dentro, si cabe.
        let ancho = (s.fin_ms - s.inicio_ms) * px_por_ms;
        let medio = (s.inicio_ms + s.fin_ms) / 2.0;
        if ancho >= 14.0 {
            grafica.draw_series(std::iter::once(Rectangle::new(caja, WHITE.stroke_width(1))))?;
            let tinta = graficas::tinta(color);
            let dentro = TextStyle::from(estilo.marcas().into_font()).color(&tinta).pos(centrada);
            let rotulo = if ancho >= 40.0 { format!("{marca} {}", s.tarea) } else { s.tarea.to_string() };
            grafica.draw_series(std::iter::once(Text::new(rotulo, (medio, y), dentro)))?;
        }
        if (8.0..40.0).contains(&ancho) {
            let encima = TextStyle::from(estilo.marcas().into_font()).color(&BLACK).pos(centrada);
            grafica.draw_series(std::iter::once(Text::new(marca.to_string(), (medio, y + 0.42), encima)))?;
        }
    }
    for (_, marca, nombre, color) in CLASES {
        grafica
            .draw_series(std::iter::once(Rectangle::new([(0.0, -10.0), (0.0, -10.0)], color.filled())))?
            .label(format!("{marca}: {nombre}"))
            .legend(move |p| graficas::muestra_con_letra(p, color, marca, 9, &estilo));
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

/// Las opciones de los programas `grafica-tokio-*`.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(about = "Dibuja la línea de tiempo (SVG) de una ejecución grabada de Tokio, a partir de lo grabado.")]
pub struct Rutas {
    /// Lo grabado que se dibuja [por defecto: el de la lección, en resultados/]
    #[arg(long, value_name = "RUTA")]
    pub registro: Option<std::path::PathBuf>,
    /// Dónde escribir el SVG [por defecto: el que muestra el libro, en book/graficas/]
    #[arg(long, value_name = "RUTA")]
    pub svg: Option<std::path::PathBuf>,
}

/// Todo el programa `grafica-tokio-CARGA`: lee las opciones y lo grabado,
/// dibuja y dice qué hizo; si algo falla, lo dice en español y termina con
/// código 1 (2 si las opciones no valen).
pub fn programa(carga: super::Carga, titulo: &str) {
    let rutas: Rutas = opciones::de_la_linea_de_ordenes();
    let leccion = env!("CARGO_MANIFEST_DIR");
    let registro = rutas.registro.unwrap_or_else(|| Path::new(leccion).join("../..").join(carga.registro()));
    let svg = rutas.svg.unwrap_or_else(|| graficas::svg_del_libro(leccion, &carga.archivo().replace(".json", ".svg")));
    let texto = std::fs::read_to_string(&registro).unwrap_or_else(|e| {
        graficas::falla(&format!(
            "no puedo leer {}: {e}. Grábalo antes con `cargo planificador --bin grabador -- --carga {}`",
            registro.display(),
            carga.nombre()
        ))
    });
    let linea = super::leer_linea_de_tiempo(&texto)
        .unwrap_or_else(|e| graficas::falla(&format!("{}: {e}", registro.display())));
    if let Some(carpeta) = svg.parent().filter(|p| !p.as_os_str().is_empty()) {
        let _ = std::fs::create_dir_all(carpeta);
    }
    if let Err(e) = dibuja(&linea, titulo, &svg) {
        graficas::falla(&format!("no pude dibujar {}: {e}", svg.display()));
    }
    println!("Gráfica: {} ({} sondeos)", svg.display(), linea.sondeos.len());
}
