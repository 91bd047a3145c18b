//! El estilo común de las gráficas del libro (`book/graficas/*.svg`), que
//! dibujan los programas `grafica-*` de las lecciones.
//!
//! El libro muestra cada SVG escalado al ancho de su columna de texto
//! ([`COLUMNA_PX`]): una gráfica de 1200 unidades de ancho se ve a 750 px, y su
//! letra, a 750/1200 de lo que dice el SVG. [`Estilo`] calcula el tamaño de
//! letra que hay que pedirle a plotters para que, ya escalado, ningún texto
//! baje de [`TEXTO_MINIMO_PX`]. Los números van en español: coma decimal y
//! los miles separados por un espacio a partir de cinco cifras
//! ([`numero`], [`marca`]).
//!
//! Cada programa `grafica-*` hace además lo mismo alrededor del dibujo:
//! leer `--csv RUTA` y `--svg RUTA`, leer y convertir el CSV de resultados,
//! crear la carpeta del SVG y decir en español qué falló. Eso vive en
//! [`Programa`]; [`svg_del_libro`] da la ruta de `book/graficas/`. Lo usan
//! las lecciones 05, 06, 09, 11, 14 y 18.
//!
//! El color nunca es lo único que distingue una serie de otra: [`serie`]`(i)`
//! le da a la serie `i` su color, su marcador y su trazo, y la leyenda
//! enseña los tres (ver el módulo [`series`]). Cada programa elige qué `i`
//! toca a cada una de sus series; ninguno elige colores ni formas por su
//! cuenta.
//!
//! ```
//! let estilo = graficas::Estilo::para(800);
//! assert!(estilo.px_en_el_libro(estilo.marcas().1) >= graficas::TEXTO_MINIMO_PX);
//! assert_eq!(graficas::numero(1234.5, 1), "1234,5");
//! assert_eq!(graficas::numero(21121.94, 1), "21 121,9");
//! assert_eq!(graficas::marca(2.5), "2,5");
//! assert_eq!(graficas::marca(40.0), "40");
//! ```

use std::path::{Path, PathBuf};

use opciones::clap::{self, Parser};
use plotters::chart::{MeshStyle, SeriesLabelStyle};
use plotters::coord::CoordTranslate;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::prelude::DrawingBackend;

pub mod series;
pub use series::{Marcador, Serie, Trazo, muestra_con_letra, muestra_rayada, rayado, serie, tinta};

/// El ancho, en px, de la columna de texto del libro (el `max-width` del
/// contenido de mdbook) a la que se escala cada gráfica.
pub const COLUMNA_PX: f64 = 750.0;

/// Ningún texto de una gráfica, ya escalada a la columna, baja de esto.
pub const TEXTO_MINIMO_PX: f64 = 11.0;

/// plotters escribe en el SVG `font-size` = tamaño pedido / 1,24.
const FACTOR_DE_PLOTTERS: f64 = 1.24;

/// La familia de letra de todas las gráficas.
pub const FAMILIA: &str = "sans-serif";

/// Los tamaños de letra de una gráfica de `ancho` unidades.
#[derive(Clone, Copy, Debug)]
pub struct Estilo {
    ancho: u32,
}

impl Estilo {
    /// El estilo de un SVG de `ancho` unidades de ancho.
    pub fn para(ancho: u32) -> Self {
        Estilo { ancho }
    }

    /// El tamaño que hay que pedirle a plotters para que el texto mida `px`
    /// en la columna del libro.
    pub fn tamano(&self, px: f64) -> f64 {
        // Redondeado a la décima: el SVG no cambia por un error de coma flotante.
        (px * FACTOR_DE_PLOTTERS * f64::from(self.ancho) / COLUMNA_PX * 10.0).round() / 10.0
    }

    /// Lo que medirá en la columna del libro un texto pedido a plotters con `tamano`.
    pub fn px_en_el_libro(&self, tamano: f64) -> f64 {
        tamano / FACTOR_DE_PLOTTERS * COLUMNA_PX / f64::from(self.ancho)
    }

    /// Una letra que mide `px` en la columna del libro (nunca menos de [`TEXTO_MINIMO_PX`]).
    pub fn letra(&self, px: f64) -> (&'static str, f64) {
        (FAMILIA, self.tamano(px.max(TEXTO_MINIMO_PX)))
    }

    /// Las marcas de los ejes: 12 px.
    pub fn marcas(&self) -> (&'static str, f64) {
        self.letra(12.0)
    }

    /// El nombre de cada eje, la leyenda y los rótulos de un panel: 13 px.
    pub fn rotulos(&self) -> (&'static str, f64) {
        self.letra(13.0)
    }

    /// El título de un panel: 14 px.
    pub fn titulo_de_panel(&self) -> (&'static str, f64) {
        self.letra(14.0)
    }

    /// El título de la gráfica: 16 px.
    pub fn titulo(&self) -> (&'static str, f64) {
        self.letra(16.0)
    }

    /// Aplica las letras de las marcas y de los nombres de los ejes a una malla.
    pub fn malla<'m, 'a, 'b, X, Y, XT, YT, DB>(
        &self,
        malla: &'m mut MeshStyle<'a, 'b, X, Y, DB>,
    ) -> &'m mut MeshStyle<'a, 'b, X, Y, DB>
    where
        X: Ranged<ValueType = XT> + ValueFormatter<XT>,
        Y: Ranged<ValueType = YT> + ValueFormatter<YT>,
        DB: DrawingBackend,
    {
        malla.label_style(self.marcas()).axis_desc_style(self.rotulos())
    }

    /// Aplica la letra de la leyenda y le deja sitio a cada muestra
    /// ([`series::MUESTRA_PX`]).
    pub fn leyenda<'m, 'a, 'b, DB, CT>(
        &self,
        leyenda: &'m mut SeriesLabelStyle<'a, 'b, DB, CT>,
    ) -> &'m mut SeriesLabelStyle<'a, 'b, DB, CT>
    where
        DB: DrawingBackend + 'a,
        CT: CoordTranslate,
    {
        leyenda.label_font(self.rotulos()).legend_area_size(series::MUESTRA_PX + 10)
    }
}

/// `x` con `decimales` decimales, en español: coma decimal y, a partir de
/// cinco cifras, los miles separados por un espacio («21 121,9»). Es
/// [`medidas::numero`]: las gráficas escriben los números igual que las
/// lecciones y `cargo curso`.
pub use medidas::numero;

/// Una marca de eje: sin decimales si el valor es entero; si no, con los
/// decimales justos (hasta dos) y coma decimal.
pub fn marca(x: f64) -> String {
    for decimales in 0..=2 {
        let escala = 10f64.powi(decimales as i32);
        if ((x * escala).round() - x * escala).abs() < 1e-6 {
            return numero(x, decimales);
        }
    }
    numero(x, 2)
}

/// `book/graficas/<nombre>` en la raíz del repositorio, visto desde la
/// carpeta de una lección (su `env!("CARGO_MANIFEST_DIR")`, `lessons/NN-...`).
pub fn svg_del_libro(leccion: &str, nombre: &str) -> PathBuf {
    let leccion = Path::new(leccion);
    let raiz = leccion.parent().and_then(Path::parent).unwrap_or(leccion);
    raiz.join("book").join("graficas").join(nombre)
}

/// Las opciones de todo programa `grafica-*`.
#[derive(Parser, Debug, Clone, PartialEq, Eq)]
#[command(about = "Dibuja una gráfica del libro (SVG) a partir del CSV de resultados de su lección.")]
pub struct Rutas {
    /// El CSV de resultados que se dibuja [por defecto: el de la lección, en resultados/]
    #[arg(long, value_name = "RUTA")]
    pub csv: Option<PathBuf>,
    /// Dónde escribir el SVG [por defecto: el que muestra el libro, en book/graficas/]
    #[arg(long, value_name = "RUTA")]
    pub svg: Option<PathBuf>,
}

/// Un programa `grafica-*`: el CSV que lee y el SVG que escribe. Cada paso
/// que falla escribe `error: ...` en español y termina el programa: con
/// código 2 si las opciones no valen, con código 1 si falla lo demás.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Programa {
    pub csv: PathBuf,
    pub svg: PathBuf,
}

impl Programa {
    /// Lee `--csv RUTA` y `--svg RUTA` de la línea de órdenes; sin ellas,
    /// usa `csv` y `svg`.
    pub fn de_la_linea_de_ordenes(csv: PathBuf, svg: PathBuf) -> Programa {
        Programa::con(opciones::de_la_linea_de_ordenes(), csv, svg)
    }

    /// Lo mismo, con las opciones ya leídas.
    pub fn con(rutas: Rutas, csv: PathBuf, svg: PathBuf) -> Programa {
        Programa { csv: rutas.csv.unwrap_or(csv), svg: rutas.svg.unwrap_or(svg) }
    }

    /// Lee el CSV y lo convierte en filas con `convierte`. Si no se puede
    /// leer, dice cómo generarlo (`genera`, como `cargo run -p leccion-05
    /// --release`); si no tiene filas o una no vale, lo dice.
    pub fn filas<F>(&self, convierte: impl FnOnce(&str) -> Result<Vec<F>, String>, genera: &str) -> Vec<F> {
        let texto = std::fs::read_to_string(&self.csv).unwrap_or_else(|e| {
            falla(&format!("no puedo leer {}: {e}. Genéralo antes con `{genera}`", self.csv.display()))
        });
        match convierte(&texto) {
            Ok(filas) if !filas.is_empty() => filas,
            Ok(_) => falla(&format!("{} no tiene ninguna fila", self.csv.display())),
            Err(e) => falla(&format!("{}: {e}", self.csv.display())),
        }
    }

    /// Crea la carpeta del SVG, si falta, y lo dibuja con `dibuja`.
    pub fn dibuja(&self, dibuja: impl FnOnce(&Path) -> Result<(), Box<dyn std::error::Error>>) {
        if let Some(carpeta) = self.svg.parent().filter(|p| !p.as_os_str().is_empty()) {
            let _ = std::fs::create_dir_all(carpeta);
        }
        if let Err(e) = dibuja(&self.svg) {
            falla(&format!("no pude dibujar {}: {e}", self.svg.display()));
        }
    }
}

/// Escribe `error: {mensaje}` y termina con código 1.
pub fn falla(mensaje: &str) -> ! {
    eprintln!("error: {mensaje}");
    std::process::exit(1)
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn los_numeros_van_en_espanol() {
        assert_eq!(numero(0.0, 1), "0,0");
        assert_eq!(numero(3200.0, 0), "3200");
        assert_eq!(numero(123456.0, 0), "123 456");
        assert_eq!(numero(-2.25, 2), "-2,25");
        assert_eq!(numero(-0.01, 1), "0,0");
        assert_eq!(marca(0.5), "0,5");
        assert_eq!(marca(0.25), "0,25");
        assert_eq!(marca(1.0 / 3.0), "0,33");
        assert_eq!(marca(20000.0), "20 000");
    }

    #[test]
    fn rutas_del_programa() {
        assert_eq!(
            svg_del_libro("/curso/lessons/05-cuando-async", "latencia.svg"),
            PathBuf::from("/curso/book/graficas/latencia.svg")
        );
        let (csv, svg) = (PathBuf::from("r.csv"), PathBuf::from("g.svg"));
        let p = Programa::con(opciones::lee(["--svg", "otra.svg"]).unwrap(), csv.clone(), svg);
        assert_eq!(p, Programa { csv, svg: PathBuf::from("otra.svg") });
        assert!(opciones::lee::<Rutas>(["--png", "x"]).unwrap_err().starts_with("opción desconocida «--png»"));
    }

    #[test]
    fn ningun_texto_baja_del_minimo_en_la_columna() {
        for ancho in [600, 800, 1000, 1200, 1600] {
            let e = Estilo::para(ancho);
            for (_, t) in [e.marcas(), e.rotulos(), e.titulo_de_panel(), e.titulo(), e.letra(5.0)] {
                assert!(e.px_en_el_libro(t) >= TEXTO_MINIMO_PX - 0.05, "{ancho}: {t}");
            }
        }
    }
}
