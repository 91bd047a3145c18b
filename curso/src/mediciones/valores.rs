//! Los números con unidad de la prosa y sus cuentas: qué cuenta como un
//! valor que registrar, cómo se comparan dos escrituras del mismo valor y
//! cuántas veces es uno respecto de otro.

use std::sync::LazyLock;

use regex::Regex;

pub(super) const UNIDADES: &str = "KiB|MiB|GiB|TiB|KB|kB|MB|GB|B|bytes|byte|ns|µs|us|ms|segundos|segundo|s|minutos|minuto|\
                        horas|hora|%|×|x|veces|GHz|MHz|por segundo";

static NUMERO: LazyLock<Regex> = LazyLock::new(|| {
    // Un número (con miles separados por espacio y decimales con coma o
    // punto) seguido de una unidad. Sin lookbehind en `regex`: el carácter de
    // antes se comprueba a mano.
    let numero = r"(\d{1,3}(?:[ \u{a0}\u{202f}]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)";
    Regex::new(&format!(r"{numero}[ \u{{a0}}\u{{202f}}]?(?:{UNIDADES})(?:$|[^\p{{L}}\p{{N}}_])")).unwrap()
});
static CODIGO_EN_LINEA: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"`[^`]*`").unwrap());
static DESTINO_DE_ENLACE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\]\([^)]*\)").unwrap());
static UNIDAD_FINAL: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[^\p{L}\p{N}_]$").unwrap());

/// Un valor con los espacios (normales o de no separación) unificados:
/// «21 121,9 MiB» con espacios finos y con espacios normales es el mismo.
pub fn unificar_espacios(valor: &str) -> String {
    valor.split([' ', '\u{a0}', '\u{202f}']).filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" ")
}

/// Un párrafo de prosa (líneas seguidas sin una en blanco), unido en una
/// sola línea, con la línea del texto donde empieza cada trozo.
#[derive(Default)]
struct Parrafo {
    texto: String,
    /// (posición en `texto`, línea del archivo)
    inicios: Vec<(usize, usize)>,
}

impl Parrafo {
    fn anadir(&mut self, linea: usize, trozo: &str) {
        if !self.texto.is_empty() {
            self.texto.push(' ');
        }
        self.inicios.push((self.texto.len(), linea));
        self.texto.push_str(trozo.trim_end());
    }

    /// Los valores del párrafo, con su línea; lo deja vacío.
    fn vaciar(&mut self, valores: &mut Vec<(usize, String)>) {
        for m in NUMERO.find_iter(&self.texto) {
            let antes = self.texto[..m.start()].chars().next_back();
            if antes.is_some_and(|c| c.is_alphanumeric() || "_/.,-".contains(c)) {
                continue;
            }
            let linea = self.inicios.iter().rev().find(|(pos, _)| *pos <= m.start()).map_or(0, |(_, l)| *l);
            let encontrado = UNIDAD_FINAL.replace(m.as_str(), "");
            valores.push((linea, unificar_espacios(&encontrado)));
        }
        *self = Parrafo::default();
    }
}

/// Los números con unidad de un texto Markdown, con su línea: fuera de los
/// bloques de código, del código en línea, de los destinos de los enlaces y
/// de la línea `**Tiempo estimado:**` (la usa el horario).
pub fn valores_de_la_prosa(texto: &str) -> Vec<(usize, String)> {
    // Se busca por párrafos, para ver también «13,9» al final de una línea y
    // «KiB» al principio de la siguiente. Cada valor se atribuye a la línea
    // donde empieza.
    let mut valores = Vec::new();
    let mut parrafo = Parrafo::default();
    let mut en_bloque = false;
    for (i, linea) in texto.lines().enumerate() {
        let recortada = linea.trim_start().trim_start_matches('>').trim_start();
        if recortada.starts_with("```") || recortada.starts_with("~~~") {
            parrafo.vaciar(&mut valores);
            en_bloque = !en_bloque;
            continue;
        }
        if en_bloque || linea.contains("**Tiempo estimado:**") {
            continue;
        }
        if recortada.is_empty() {
            parrafo.vaciar(&mut valores);
            continue;
        }
        let sin_codigo = CODIGO_EN_LINEA.replace_all(recortada, " ");
        parrafo.anadir(i + 1, &DESTINO_DE_ENLACE.replace_all(&sin_codigo, "]"));
    }
    parrafo.vaciar(&mut valores);
    valores
}

/// Un valor con unidad en la unidad base de su magnitud (bytes o
/// segundos), con su magnitud: `("9,58 KiB")` da `(9809.92, "B")`.
pub fn en_unidad_base(valor: &str) -> Option<(f64, &'static str)> {
    let v = unificar_espacios(valor);
    let (numero, unidad) = v.rsplit_once(' ')?;
    let numero: f64 = numero.replace(' ', "").replace(',', ".").parse().ok()?;
    let (factor, magnitud) = match unidad {
        "B" | "bytes" | "byte" => (1.0, "B"),
        "KiB" => (1024.0, "B"),
        "MiB" => (1024.0 * 1024.0, "B"),
        "GiB" => (1024.0 * 1024.0 * 1024.0, "B"),
        "ns" => (1e-9, "s"),
        "µs" | "us" => (1e-6, "s"),
        "ms" => (1e-3, "s"),
        "s" => (1.0, "s"),
        _ => return None,
    };
    Some((numero * factor, magnitud))
}

/// Cuántas veces es `mayor` respecto de `menor`, si son de la misma magnitud.
pub fn cuantas_veces(mayor: &str, menor: &str) -> Option<f64> {
    let (a, ma) = en_unidad_base(mayor)?;
    let (b, mb) = en_unidad_base(menor)?;
    (ma == mb && b > 0.0).then(|| a / b)
}

/// Un número con coma decimal y sin decimales de sobra (con
/// [`medidas::numero`], como lo escriben las lecciones).
pub fn con_coma(x: f64) -> String {
    let decimales = if x >= 100.0 {
        0
    } else if x >= 10.0 {
        1
    } else {
        2
    };
    medidas::numero(x, decimales)
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn extrae_numeros_con_unidad_de_la_prosa() {
        let texto = "Un hilo ocupa 9,7 KiB y 21 121,9 MiB virtuales; tarda 10 ms.\n\
                     ```rust\nlet x = 10 ms;\n```\n\
                     Con `sleep(5 ms)` y [enlace](a-3 s.md), 64 bytes, 39 veces, el 99 % y 10x.\n\
                     **Tiempo estimado:** 60 minutos.\n\
                     Capítulo 3, versión 1.54, p99 y x86_64: nada. Pero 1.8 KiB sí, y también 13,9\n  KiB partido.";
        let v: Vec<String> = valores_de_la_prosa(texto).into_iter().map(|(_, v)| v).collect();
        assert_eq!(
            v,
            ["9,7 KiB", "21 121,9 MiB", "10 ms", "64 bytes", "39 veces", "99 %", "10x", "1.8 KiB", "13,9 KiB"]
        );
    }

    #[test]
    fn las_razones_se_calculan_en_la_misma_magnitud() {
        assert_eq!(cuantas_veces("6,8 µs", "149 ns").map(|x| (x * 10.0).round()), Some(456.0));
        assert_eq!(cuantas_veces("1 MiB", "1 KiB"), Some(1024.0));
        assert_eq!(cuantas_veces("21 121,9 MiB", "21 121,9 MiB"), Some(1.0));
        assert_eq!(cuantas_veces("1 ms", "1 KiB"), None);
        assert_eq!(con_coma(45.637), "45,6");
        assert_eq!(con_coma(1.3799), "1,38");
    }
}
