//! Cada serie se distingue también sin color: en gris, impresa en blanco y
//! negro o vista por alguien que no distingue el rojo del verde.
//!
//! [`serie`]`(i)` da a la serie `i` de una gráfica su color, su
//! [`Marcador`] (círculo, cuadrado, triángulo...) y su [`Trazo`] (continuo,
//! discontinuo, punteado...). Las seis primeras llevan marcadores distintos;
//! las cuatro primeras, además, trazos distintos. Con ellas se dibuja:
//!
//! - [`Serie::linea`]: la línea, con su trazo, y su marcador en cada punto
//!   (si la serie tiene muchos puntos, en uno cada [`ENTRE_MARCAS_PX`] de
//!   recorrido, empezando en un sitio distinto en cada serie para que las
//!   que van juntas no se tapen los marcadores);
//! - [`Serie::marca`]: el marcador solo, del color de la serie (en una barra
//!   de error, un punto suelto...); [`Serie::marca_clara`], blanco con borde
//!   negro, para ponerlo encima de una barra del color de la serie;
//! - [`Serie::muestra`] y [`Serie::muestra_de_barra`]: lo que enseña la
//!   leyenda, que es lo mismo que la gráfica: un trozo de la línea con su
//!   trazo y su marcador, o un trozo de barra con su marcador.
//!
//! Para las líneas de tiempo (rectángulos por categoría), la regla es la
//! misma con otros medios: una letra en cada rectángulo o encima, y lo que
//! va detrás (los ratos en que un trabajador duerme), [`rayado`].

use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;
use plotters_backend::{BackendCoord, DrawingErrorKind};

/// La forma que marca cada punto de una serie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marcador {
    Circulo,
    Cuadrado,
    Triangulo,
    Rombo,
    Aspa,
    TrianguloAbajo,
}

impl Marcador {
    /// Su nombre, en plural, como lo diría un texto alternativo: «la línea
    /// roja, con círculos».
    pub fn nombre(self) -> &'static str {
        match self {
            Marcador::Circulo => "círculos",
            Marcador::Cuadrado => "cuadrados",
            Marcador::Triangulo => "triángulos",
            Marcador::Rombo => "rombos",
            Marcador::Aspa => "aspas",
            Marcador::TrianguloAbajo => "triángulos hacia abajo",
        }
    }

    /// El contorno de la forma alrededor de `(0, 0)`, para un radio `r`
    /// (el círculo no lo tiene: se dibuja como círculo).
    fn contorno(self, r: f64) -> Vec<(f64, f64)> {
        // Un triángulo equilátero con su centro en el origen; `s` = 1 hacia arriba.
        let triangulo = |s: f64| {
            let r = r * 1.25;
            [-90.0f64, 30.0, 150.0]
                .iter()
                .map(|g| {
                    let a = g.to_radians();
                    (r * a.cos(), s * r * a.sin() + s * r * 0.1)
                })
                .collect()
        };
        match self {
            Marcador::Circulo => Vec::new(),
            Marcador::Cuadrado => {
                let a = r * 0.85;
                vec![(-a, -a), (a, -a), (a, a), (-a, a)]
            }
            Marcador::Triangulo => triangulo(1.0),
            Marcador::TrianguloAbajo => triangulo(-1.0),
            Marcador::Rombo => {
                let (a, b) = (r * 1.05, r * 1.3);
                vec![(0.0, -b), (a, 0.0), (0.0, b), (-a, 0.0)]
            }
            Marcador::Aspa => {
                // Una cruz de brazos anchos, girada 45°.
                let (l, w) = (r * 1.25, r * 0.38);
                let cruz = [
                    (-w, -l),
                    (w, -l),
                    (w, -w),
                    (l, -w),
                    (l, w),
                    (w, w),
                    (w, l),
                    (-w, l),
                    (-w, w),
                    (-l, w),
                    (-l, -w),
                    (-w, -w),
                ];
                let c = std::f64::consts::FRAC_1_SQRT_2;
                cruz.iter().map(|&(x, y)| (c * (x - y), c * (x + y))).collect()
            }
        }
    }
}

/// Cómo se dibuja la línea de una serie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trazo {
    Continuo,
    Discontinuo,
    Punteado,
    RayaYPunto,
}

impl Trazo {
    /// Las longitudes, en unidades del SVG, de trazo y hueco, alternas
    /// (vacío: continuo).
    pub fn patron(self) -> &'static [f64] {
        match self {
            Trazo::Continuo => &[],
            Trazo::Discontinuo => &[11.0, 6.0],
            Trazo::Punteado => &[3.0, 4.0],
            Trazo::RayaYPunto => &[12.0, 4.0, 3.0, 4.0],
        }
    }

    /// Su nombre, como lo diría un texto alternativo.
    pub fn nombre(self) -> &'static str {
        match self {
            Trazo::Continuo => "continua",
            Trazo::Discontinuo => "discontinua",
            Trazo::Punteado => "punteada",
            Trazo::RayaYPunto => "de raya y punto",
        }
    }
}

/// Lo que distingue a una serie: su color, su marcador y su trazo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Serie {
    /// Su lugar en la gráfica (decide dónde empiezan sus marcadores).
    pub indice: usize,
    pub color: RGBColor,
    pub marcador: Marcador,
    pub trazo: Trazo,
}

/// Los colores de las series, en orden: rojo, azul, verde, morado, naranja y gris.
pub const COLORES: [RGBColor; 6] = [
    RGBColor(0xc0, 0x39, 0x2b),
    RGBColor(0x29, 0x80, 0xb9),
    RGBColor(0x27, 0xae, 0x60),
    RGBColor(0x8e, 0x44, 0xad),
    RGBColor(0xe6, 0x7e, 0x22),
    RGBColor(0x7f, 0x8c, 0x8d),
];

/// El nombre de cada color de [`COLORES`], como lo diría un texto alternativo.
pub const NOMBRES_DE_COLORES: [&str; 6] = ["roja", "azul", "verde", "morada", "naranja", "gris"];

const MARCADORES: [Marcador; 6] = [
    Marcador::Circulo,
    Marcador::Cuadrado,
    Marcador::Triangulo,
    Marcador::Rombo,
    Marcador::Aspa,
    Marcador::TrianguloAbajo,
];

const TRAZOS: [Trazo; 4] = [Trazo::Continuo, Trazo::Discontinuo, Trazo::Punteado, Trazo::RayaYPunto];

/// Cuántas series seguidas se distinguen sin color (por su marcador).
pub const DISTINTAS: usize = MARCADORES.len();

/// La serie `i` de una gráfica: la `i` del color, del marcador y del trazo.
/// A partir de [`DISTINTAS`] se repiten.
pub fn serie(i: usize) -> Serie {
    Serie {
        indice: i,
        color: COLORES[i % COLORES.len()],
        marcador: MARCADORES[i % DISTINTAS],
        trazo: TRAZOS[i % TRAZOS.len()],
    }
}

/// El radio, en unidades del SVG, de un marcador.
pub const RADIO: u32 = 5;

/// Con más puntos que esto, una línea no lleva marcador en cada punto, sino
/// uno cada [`ENTRE_MARCAS_PX`] de recorrido.
pub const PUNTOS_CON_MARCA: usize = 40;

/// Lo que recorre, en unidades del SVG, una línea con muchos puntos entre
/// un marcador y el siguiente.
pub const ENTRE_MARCAS_PX: f64 = 64.0;

/// El ancho, en unidades del SVG, de la muestra de la leyenda.
pub const MUESTRA_PX: i32 = 40;

impl Serie {
    /// Su descripción para un texto alternativo: «roja, con círculos».
    pub fn en_palabras(&self) -> String {
        let color = COLORES.iter().position(|c| *c == self.color).map_or("", |i| NOMBRES_DE_COLORES[i]);
        format!("{color}, con {}", self.marcador.nombre())
    }

    /// La línea que une `puntos`, con su trazo y su marcador.
    pub fn linea<C>(&self, puntos: impl IntoIterator<Item = C>) -> Linea<C> {
        Linea { puntos: puntos.into_iter().collect(), serie: *self, grosor: 2, marcas: true }
    }

    /// Su marcador en `centro`, relleno de su color y con borde blanco.
    pub fn marca<C>(&self, centro: C) -> Marca<C> {
        Marca {
            centro,
            marcador: self.marcador,
            radio: RADIO,
            relleno: self.color,
            borde: WHITE,
            desplazamiento: (0, 0),
        }
    }

    /// Su marcador en `centro`, blanco con borde negro: se ve encima de una
    /// barra de su color y encima del fondo.
    pub fn marca_clara<C>(&self, centro: C) -> Marca<C> {
        Marca {
            centro,
            marcador: self.marcador,
            radio: RADIO + 1,
            relleno: WHITE,
            borde: BLACK,
            desplazamiento: (0, 0),
        }
    }

    /// La muestra de la leyenda de una línea, con `origen` en su extremo
    /// izquierdo: un trozo de [`MUESTRA_PX`] con su trazo y su marcador en medio.
    pub fn muestra(&self, origen: BackendCoord) -> Muestra {
        Muestra { origen, serie: *self, barra: false }
    }

    /// La muestra de la leyenda de una barra: un rectángulo de su color con
    /// su marcador claro en medio.
    pub fn muestra_de_barra(&self, origen: BackendCoord) -> Muestra {
        Muestra { origen, serie: *self, barra: true }
    }
}

/// La línea de una serie: ver [`Serie::linea`].
pub struct Linea<C> {
    puntos: Vec<C>,
    serie: Serie,
    grosor: u32,
    marcas: bool,
}

impl<C> Linea<C> {
    /// El grosor de la línea, en unidades del SVG (2 si no se dice).
    pub fn grosor(mut self, grosor: u32) -> Self {
        self.grosor = grosor;
        self
    }

    /// Sin marcadores (si se dibujan aparte, por ejemplo en la mediana de
    /// una barra de error).
    pub fn sin_marcas(mut self) -> Self {
        self.marcas = false;
        self
    }
}

impl<C> IntoIterator for Linea<C> {
    type Item = Linea<C>;
    type IntoIter = std::iter::Once<Linea<C>>;

    fn into_iter(self) -> Self::IntoIter {
        std::iter::once(self)
    }
}

impl<'a, C: 'a> PointCollection<'a, C> for &'a Linea<C> {
    type Point = &'a C;
    type IntoIter = std::slice::Iter<'a, C>;

    fn point_iter(self) -> Self::IntoIter {
        self.puntos.iter()
    }
}

impl<C, DB: DrawingBackend> Drawable<DB> for Linea<C> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        pos: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        let puntos: Vec<(f64, f64)> = pos.map(|(x, y)| (f64::from(x), f64::from(y))).collect();
        let estilo = ShapeStyle { color: self.serie.color.to_rgba(), filled: false, stroke_width: self.grosor };
        for trozo in trozos(&puntos, self.serie.trazo.patron(), 0.0) {
            backend.draw_path(trozo.into_iter().map(redondea), &estilo)?;
        }
        if self.marcas {
            for i in donde_marcar(&puntos, self.serie.indice) {
                self.serie.marca(redondea(puntos[i])).dibuja(backend, redondea(puntos[i]))?;
            }
        }
        Ok(())
    }
}

/// El marcador de una serie en un punto: ver [`Serie::marca`].
pub struct Marca<C> {
    centro: C,
    marcador: Marcador,
    radio: u32,
    relleno: RGBColor,
    borde: RGBColor,
    desplazamiento: (i32, i32),
}

impl<C> Marca<C> {
    /// Otro radio, en unidades del SVG.
    pub fn radio(mut self, radio: u32) -> Self {
        self.radio = radio;
        self
    }

    /// Movido `(dx, dy)` unidades del SVG desde su punto (por ejemplo, para
    /// que quede dentro de una barra, encima del eje).
    pub fn desplazada(mut self, dx: i32, dy: i32) -> Self {
        self.desplazamiento = (dx, dy);
        self
    }

    fn dibuja<DB: DrawingBackend>(
        &self,
        backend: &mut DB,
        (x, y): BackendCoord,
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        let (x, y) = (x + self.desplazamiento.0, y + self.desplazamiento.1);
        let borde = ShapeStyle { color: self.borde.to_rgba(), filled: false, stroke_width: 1 };
        if self.marcador == Marcador::Circulo {
            backend.draw_circle((x, y), self.radio, &self.relleno, true)?;
            return backend.draw_circle((x, y), self.radio, &borde, false);
        }
        let contorno: Vec<BackendCoord> = self
            .marcador
            .contorno(f64::from(self.radio))
            .into_iter()
            .map(|(dx, dy)| redondea((f64::from(x) + dx, f64::from(y) + dy)))
            .collect();
        backend.fill_polygon(contorno.iter().copied(), &self.relleno)?;
        backend.draw_path(contorno.iter().chain(contorno.first()).copied(), &borde)
    }
}

impl<C> IntoIterator for Marca<C> {
    type Item = Marca<C>;
    type IntoIter = std::iter::Once<Marca<C>>;

    fn into_iter(self) -> Self::IntoIter {
        std::iter::once(self)
    }
}

impl<'a, C: 'a> PointCollection<'a, C> for &'a Marca<C> {
    type Point = &'a C;
    type IntoIter = std::iter::Once<&'a C>;

    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.centro)
    }
}

impl<C, DB: DrawingBackend> Drawable<DB> for Marca<C> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut pos: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        match pos.next() {
            Some(p) => self.dibuja(backend, p),
            None => Ok(()),
        }
    }
}

/// La muestra de una serie en la leyenda: ver [`Serie::muestra`].
pub struct Muestra {
    origen: BackendCoord,
    serie: Serie,
    barra: bool,
}

impl<'a> PointCollection<'a, BackendCoord> for &'a Muestra {
    type Point = &'a BackendCoord;
    type IntoIter = std::iter::Once<&'a BackendCoord>;

    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.origen)
    }
}

impl<DB: DrawingBackend> Drawable<DB> for Muestra {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut pos: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        let Some((x, y)) = pos.next() else { return Ok(()) };
        let medio = (x + MUESTRA_PX / 2, y);
        if self.barra {
            let (ancho, alto) = (MUESTRA_PX * 3 / 4, 10);
            let (x0, x1) = (medio.0 - ancho / 2, medio.0 + ancho / 2);
            backend.draw_rect((x0, y - alto), (x1, y + alto), &self.serie.color, true)?;
            return self.serie.marca_clara(medio).dibuja(backend, medio);
        }
        let estilo = ShapeStyle { color: self.serie.color.to_rgba(), filled: false, stroke_width: 3 };
        let linea = [(f64::from(x), f64::from(y)), (f64::from(x + MUESTRA_PX), f64::from(y))];
        for trozo in trozos(&linea, self.serie.trazo.patron(), 0.0) {
            backend.draw_path(trozo.into_iter().map(redondea), &estilo)?;
        }
        self.serie.marca(medio).dibuja(backend, medio)
    }
}

/// El color de un texto sobre `fondo`: negro sobre lo claro, blanco sobre lo oscuro.
pub fn tinta(fondo: RGBColor) -> RGBColor {
    let luz = 0.3 * f64::from(fondo.0) + 0.59 * f64::from(fondo.1) + 0.11 * f64::from(fondo.2);
    if luz > 140.0 { BLACK } else { WHITE }
}

/// El ancho de la muestra de una categoría en la leyenda: va centrada en el
/// sitio de [`MUESTRA_PX`] que deja la leyenda.
const CAJA_PX: i32 = 18;

/// La muestra de la leyenda de una categoría de una línea de tiempo, que se
/// marca con una letra: un rectángulo de su color, de [`CAJA_PX`] de ancho y
/// `medio_alto` por encima y por debajo de `origen`, con la letra dentro.
pub fn muestra_con_letra(
    origen: BackendCoord,
    color: RGBColor,
    letra: &str,
    medio_alto: i32,
    estilo: &crate::Estilo,
) -> MuestraConLetra {
    MuestraConLetra { origen, color, letra: letra.to_string(), medio_alto, letra_de: estilo.marcas() }
}

/// Ver [`muestra_con_letra`].
pub struct MuestraConLetra {
    origen: BackendCoord,
    color: RGBColor,
    letra: String,
    medio_alto: i32,
    letra_de: (&'static str, f64),
}

impl<'a> PointCollection<'a, BackendCoord> for &'a MuestraConLetra {
    type Point = &'a BackendCoord;
    type IntoIter = std::iter::Once<&'a BackendCoord>;

    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.origen)
    }
}

impl<DB: DrawingBackend> Drawable<DB> for MuestraConLetra {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut pos: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        use plotters::style::text_anchor::{HPos, Pos, VPos};
        let Some((x, y)) = pos.next() else { return Ok(()) };
        let x = x + (MUESTRA_PX - CAJA_PX) / 2;
        backend.draw_rect((x, y - self.medio_alto), (x + CAJA_PX, y + self.medio_alto), &self.color, true)?;
        if self.letra.is_empty() {
            return Ok(());
        }
        let tinta = tinta(self.color);
        let estilo = TextStyle::from(self.letra_de.into_font()).color(&tinta).pos(Pos::new(HPos::Center, VPos::Center));
        backend.draw_text(&self.letra, &estilo, (x + CAJA_PX / 2, y))
    }
}

/// Un rectángulo rayado en diagonal: lo que va detrás y no es una serie (los
/// ratos en que un trabajador duerme) se distingue así, también en gris.
pub fn rayado<C>(esquinas: [C; 2], fondo: RGBColor, rayas: RGBColor) -> Rayado<C> {
    Rayado { esquinas, fondo, rayas, separacion: 7 }
}

/// La muestra del [`rayado`] en la leyenda, con `origen` como en
/// [`muestra_con_letra`].
pub fn muestra_rayada((x, y): BackendCoord, fondo: RGBColor, rayas: RGBColor) -> Rayado<BackendCoord> {
    let x = x + (MUESTRA_PX - CAJA_PX) / 2;
    rayado([(x, y - 9), (x + CAJA_PX, y + 9)], fondo, rayas)
}

/// Ver [`rayado`].
pub struct Rayado<C> {
    esquinas: [C; 2],
    fondo: RGBColor,
    rayas: RGBColor,
    separacion: i32,
}

impl<C> IntoIterator for Rayado<C> {
    type Item = Rayado<C>;
    type IntoIter = std::iter::Once<Rayado<C>>;

    fn into_iter(self) -> Self::IntoIter {
        std::iter::once(self)
    }
}

impl<'a, C: 'a> PointCollection<'a, C> for &'a Rayado<C> {
    type Point = &'a C;
    type IntoIter = std::slice::Iter<'a, C>;

    fn point_iter(self) -> Self::IntoIter {
        self.esquinas.iter()
    }
}

impl<C, DB: DrawingBackend> Drawable<DB> for Rayado<C> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut pos: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        let (Some(a), Some(b)) = (pos.next(), pos.next()) else { return Ok(()) };
        let (x0, x1, y0, y1) = (a.0.min(b.0), a.0.max(b.0), a.1.min(b.1), a.1.max(b.1));
        backend.draw_rect((x0, y0), (x1, y1), &self.fondo, true)?;
        let estilo = ShapeStyle { color: self.rayas.to_rgba(), filled: false, stroke_width: 1 };
        for (desde, hasta) in rayas((x0, y0), (x1, y1), self.separacion) {
            backend.draw_line(desde, hasta, &estilo)?;
        }
        Ok(())
    }
}

/// Las rayas «/» que cruzan el rectángulo de `(x0, y0)` a `(x1, y1)`, una
/// cada `separacion` (medida en horizontal), ya recortadas a él. Van fijas
/// respecto al origen del dibujo: dos rectángulos seguidos continúan las rayas.
fn rayas((x0, y0): BackendCoord, (x1, y1): BackendCoord, separacion: i32) -> Vec<(BackendCoord, BackendCoord)> {
    let mut v = Vec::new();
    // La raya `c` son los puntos con x + y = c.
    let primera = (x0 + y0).div_euclid(separacion) * separacion + separacion;
    let mut c = primera;
    while c < x1 + y1 {
        let (desde_x, hasta_x) = ((c - y1).max(x0), (c - y0).min(x1));
        if desde_x < hasta_x {
            v.push(((desde_x, c - desde_x), (hasta_x, c - hasta_x)));
        }
        c += separacion;
    }
    v
}

fn redondea((x, y): (f64, f64)) -> BackendCoord {
    (x.round() as i32, y.round() as i32)
}

/// Los trozos de la línea `puntos` que se dibujan con el `patron` de trazo y
/// hueco (vacío: toda la línea), empezando `fase` unidades dentro del patrón.
fn trozos(puntos: &[(f64, f64)], patron: &[f64], fase: f64) -> Vec<Vec<(f64, f64)>> {
    if patron.is_empty() || patron.iter().sum::<f64>() <= 0.0 {
        return if puntos.len() >= 2 { vec![puntos.to_vec()] } else { Vec::new() };
    }
    let mut resultado = Vec::new();
    // En qué tramo del patrón se está y cuánto le queda.
    let mut tramo = 0;
    let mut queda = patron[0];
    let mut avance = fase % patron.iter().sum::<f64>();
    while avance > 0.0 {
        let paso = avance.min(queda);
        avance -= paso;
        queda -= paso;
        if queda <= 0.0 {
            tramo = (tramo + 1) % patron.len();
            queda = patron[tramo];
        }
    }
    let mut actual: Vec<(f64, f64)> = Vec::new();
    for par in puntos.windows(2) {
        let (a, b) = (par[0], par[1]);
        let largo = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
        let mut hecho = 0.0;
        while hecho < largo {
            let paso = queda.min(largo - hecho);
            let punto = |t: f64| (a.0 + (b.0 - a.0) * t / largo, a.1 + (b.1 - a.1) * t / largo);
            if tramo % 2 == 0 {
                if actual.is_empty() {
                    actual.push(punto(hecho));
                }
                actual.push(punto(hecho + paso));
            }
            hecho += paso;
            queda -= paso;
            if queda <= 1e-9 {
                if tramo % 2 == 0 && actual.len() >= 2 {
                    resultado.push(std::mem::take(&mut actual));
                }
                actual.clear();
                tramo = (tramo + 1) % patron.len();
                queda = patron[tramo];
            }
        }
    }
    if actual.len() >= 2 {
        resultado.push(actual);
    }
    resultado
}

/// Los índices de `puntos` que llevan marcador: todos si son pocos
/// ([`PUNTOS_CON_MARCA`]); si no, uno cada [`ENTRE_MARCAS_PX`] de recorrido,
/// empezando más adelante cuanto mayor es `indice` (así las series que van
/// juntas alternan sus marcadores en lugar de taparlos).
fn donde_marcar(puntos: &[(f64, f64)], indice: usize) -> Vec<usize> {
    if puntos.len() <= PUNTOS_CON_MARCA {
        return (0..puntos.len()).collect();
    }
    let fase = ENTRE_MARCAS_PX / 4.0 + (indice % DISTINTAS) as f64 * ENTRE_MARCAS_PX / DISTINTAS as f64;
    let mut marcados = Vec::new();
    let mut recorrido = ENTRE_MARCAS_PX - fase;
    for (i, par) in puntos.windows(2).enumerate() {
        recorrido += ((par[1].0 - par[0].0).powi(2) + (par[1].1 - par[0].1).powi(2)).sqrt();
        if recorrido >= ENTRE_MARCAS_PX {
            marcados.push(i + 1);
            recorrido = 0.0;
        }
    }
    marcados
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn las_primeras_series_no_se_confunden_sin_color() {
        for i in 0..DISTINTAS {
            for j in 0..i {
                assert_ne!(serie(i).marcador, serie(j).marcador, "{i} y {j}");
            }
        }
        for i in 0..TRAZOS.len() {
            for j in 0..i {
                assert_ne!(serie(i).trazo, serie(j).trazo, "{i} y {j}");
            }
        }
        assert_eq!(serie(DISTINTAS).marcador, serie(0).marcador);
        assert_eq!(serie(0).en_palabras(), "roja, con círculos");
        assert_eq!(serie(1).en_palabras(), "azul, con cuadrados");
    }

    #[test]
    fn un_trazo_discontinuo_alterna_trazo_y_hueco() {
        let linea = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)];
        assert_eq!(trozos(&linea, &[], 0.0), vec![linea.to_vec()]);
        let t = trozos(&linea, &[4.0, 2.0], 0.0);
        // 0-4, 6-10 (que dobla la esquina y sigue hasta 10,0 ... 10,0), 12-16, 18-20.
        assert_eq!(t[0], vec![(0.0, 0.0), (4.0, 0.0)]);
        assert_eq!(t[1], vec![(6.0, 0.0), (10.0, 0.0)]);
        assert_eq!(t[2], vec![(10.0, 2.0), (10.0, 6.0)]);
        assert_eq!(t[3], vec![(10.0, 8.0), (10.0, 10.0)]);
        assert_eq!(t.len(), 4);
        // Un trazo que dobla una esquina es un solo trozo con la esquina dentro.
        let t = trozos(&linea, &[12.0, 2.0], 0.0);
        assert_eq!(t[0], vec![(0.0, 0.0), (10.0, 0.0), (10.0, 2.0)]);
        assert_eq!(t[1], vec![(10.0, 4.0), (10.0, 10.0)]);
    }

    #[test]
    fn con_muchos_puntos_los_marcadores_se_espacian_y_se_alternan() {
        let pocos: Vec<(f64, f64)> = (0..5).map(|i| (f64::from(i) * 100.0, 0.0)).collect();
        assert_eq!(donde_marcar(&pocos, 3), vec![0, 1, 2, 3, 4]);
        let muchos: Vec<(f64, f64)> = (0..641).map(|i| (f64::from(i), 0.0)).collect();
        let a = donde_marcar(&muchos, 0);
        let b = donde_marcar(&muchos, 1);
        assert!((9..=10).contains(&a.len()), "{a:?}");
        for par in a.windows(2) {
            assert_eq!(par[1] - par[0], ENTRE_MARCAS_PX as usize);
        }
        assert!(a.iter().all(|i| !b.contains(i)), "{a:?} {b:?}");
    }

    #[test]
    fn las_rayas_no_salen_del_rectangulo() {
        let v = rayas((10, 20), (50, 35), 7);
        assert!(!v.is_empty());
        for ((xa, ya), (xb, yb)) in v {
            for (x, y) in [(xa, ya), (xb, yb)] {
                assert!((10..=50).contains(&x) && (20..=35).contains(&y), "{x},{y}");
            }
            assert_eq!(xa + ya, xb + yb);
        }
    }
}
