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
//! ```
//! let estilo = graficas::Estilo::para(800);
//! assert!(estilo.px_en_el_libro(estilo.marcas().1) >= graficas::TEXTO_MINIMO_PX);
//! assert_eq!(graficas::numero(1234.5, 1), "1234,5");
//! assert_eq!(graficas::numero(21121.94, 1), "21 121,9");
//! assert_eq!(graficas::marca(2.5), "2,5");
//! assert_eq!(graficas::marca(40.0), "40");
//! ```

use plotters::chart::{MeshStyle, SeriesLabelStyle};
use plotters::coord::CoordTranslate;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::prelude::DrawingBackend;

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

    /// Aplica la letra de la leyenda.
    pub fn leyenda<'m, 'a, 'b, DB, CT>(
        &self,
        leyenda: &'m mut SeriesLabelStyle<'a, 'b, DB, CT>,
    ) -> &'m mut SeriesLabelStyle<'a, 'b, DB, CT>
    where
        DB: DrawingBackend + 'a,
        CT: CoordTranslate,
    {
        leyenda.label_font(self.rotulos())
    }
}

/// `x` con `decimales` decimales, en español: coma decimal y, a partir de
/// cinco cifras, los miles separados por un espacio («21 121,9»).
pub fn numero(x: f64, decimales: usize) -> String {
    let texto = format!("{:.*}", decimales, x.abs());
    let (entera, fraccion) = texto.split_once('.').map_or((texto.as_str(), None), |(e, f)| (e, Some(f)));
    let mut agrupada = String::new();
    if entera.len() >= 5 {
        for (i, c) in entera.chars().enumerate() {
            if i > 0 && (entera.len() - i) % 3 == 0 {
                agrupada.push(' ');
            }
            agrupada.push(c);
        }
    } else {
        agrupada.push_str(entera);
    }
    let signo = if x < 0.0 && texto.chars().any(|c| c.is_ascii_digit() && c != '0') { "-" } else { "" };
    match fraccion {
        Some(f) => format!("{signo}{agrupada},{f}"),
        None => format!("{signo}{agrupada}"),
    }
}

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
    fn ningun_texto_baja_del_minimo_en_la_columna() {
        for ancho in [600, 800, 1000, 1200, 1600] {
            let e = Estilo::para(ancho);
            for (_, t) in [e.marcas(), e.rotulos(), e.titulo_de_panel(), e.titulo(), e.letra(5.0)] {
                assert!(e.px_en_el_libro(t) >= TEXTO_MINIMO_PX - 0.05, "{ancho}: {t}");
            }
        }
    }
}
