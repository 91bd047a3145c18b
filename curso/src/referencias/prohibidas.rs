//! Lo que no puede aparecer en el libro, en un registro ni en el código que
//! el libro incluye: archivos de fuera del repositorio y textos que quien
//! lee no tiene.

use std::sync::LazyLock;

use regex::Regex;

use crate::error::Tipo;

/// Una regla: lo que se busca, por qué no vale y qué clase de problema es.
struct Regla {
    patron: Regex,
    porque: &'static str,
    tipo: Tipo,
}

/// Las reglas, en orden; las [`PROHIBIDOS_EN_CODIGO`] primeras valen también
/// para el código.
static PROHIBIDOS: LazyLock<Vec<Regla>> = LazyLock::new(|| {
    let fuera = ("nombra un archivo de fuera del repositorio, que quien lee no tiene", Tipo::ArchivoDeFuera);
    let oculta = (
        "cita un texto que quien lee no tiene; cita una entrada de referencias.md \
         o presenta la idea como argumento del curso",
        Tipo::TextoOculto,
    );
    [
        (r"(?i)\bfacts\.md\b", fuera),
        (r"(?i)\.\./shared\b|/work/shared|\bshared/(reference|seeds|tools)\b", fuera),
        (r"(?i)\bseeds?/", fuera),
        (r"(?i)\bhechos?\s+\d+", oculta),
        (r"(?i)\breferencias del curso\b", oculta),
        (r"(?i)\btexto (del|de la) que part", oculta),
        (r"(?i)\btexto de origen\b", oculta),
        (r"(?i)\bfuentes? del curso\b", oculta),
        // Desde aquí, solo en el libro y los registros (no en el código).
        (r"(?i)\bfuentes? (de|en) (la )?que (se basa|parte)", oculta),
        (r"(?i)\bfuentes? de (este|esta) (capítulo|parte|curso|lección)", oculta),
        (r"(?i)\b(la|las|esa|esta|una|su|sus) fuentes?\b", oculta),
        (r"(?i)\bsemilla\s*=", oculta),
    ]
    .into_iter()
    .map(|(r, (porque, tipo))| Regla { patron: Regex::new(r).unwrap(), porque, tipo })
    .collect()
});

/// Cuántas de las reglas de [`PROHIBIDOS`] valen también para el código.
const PROHIBIDOS_EN_CODIGO: usize = 8;

/// Una mención prohibida: su línea, lo que dice, por qué no vale y su clase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mencion {
    pub linea: usize,
    pub texto: String,
    pub porque: &'static str,
    pub tipo: Tipo,
}

/// Las menciones prohibidas de un texto del libro o de un registro. Se
/// saltan los bloques de código.
pub fn menciones_prohibidas(texto: &str) -> Vec<Mencion> {
    menciones(texto, PROHIBIDOS.len())
}

/// Las menciones prohibidas en un archivo de código (sin «la fuente», que
/// en un comentario puede ser el código fuente).
pub fn menciones_prohibidas_en_codigo(texto: &str) -> Vec<Mencion> {
    menciones(texto, PROHIBIDOS_EN_CODIGO)
}

fn menciones(texto: &str, reglas: usize) -> Vec<Mencion> {
    let mut salida = Vec::new();
    let mut en_bloque = false;
    for (i, linea) in texto.lines().enumerate() {
        if linea.trim_start().trim_start_matches('>').trim_start().starts_with("```") {
            en_bloque = !en_bloque;
            continue;
        }
        if en_bloque {
            continue;
        }
        let primera = PROHIBIDOS.iter().take(reglas).find_map(|r| r.patron.find(linea).map(|m| (r, m)));
        if let Some((r, m)) = primera {
            salida.push(Mencion { linea: i + 1, texto: m.as_str().to_string(), porque: r.porque, tipo: r.tipo });
        }
    }
    salida
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn las_menciones_prohibidas_se_ven_fuera_del_codigo() {
        let texto = "Según el hecho 7, nada.\n```text\nhecho 7\n```\nLa fuente dice otra cosa.\n\
                     Está en ../shared/reference/facts.md.\nEl código fuente de Tokio está bien.\n";
        let m: Vec<(usize, Tipo)> = menciones_prohibidas(texto).into_iter().map(|m| (m.linea, m.tipo)).collect();
        assert_eq!(m, [(1, Tipo::TextoOculto), (5, Tipo::TextoOculto), (6, Tipo::ArchivoDeFuera)]);
    }
}
