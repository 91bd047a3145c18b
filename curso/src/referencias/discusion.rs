//! Los textos con los que el libro discute: quien lee tiene que poder
//! leerlos. Un párrafo que responde a «la crítica» (los artículos con los que
//! discuten los capítulos 10 a 14), o que traduce entre comillas una frase de
//! un original inglés que da a continuación en cursiva
//! («planificador humano en el bucle» (*human scheduler in the loop*)), cita
//! en ese mismo párrafo una entrada de `referencias.md`.
//!
//! Un párrafo, aquí, es un bloque de líneas entre líneas en blanco; cada
//! elemento de una lista y cada fila de una tabla cuentan como un párrafo
//! aparte. No se miran los bloques de código ni los encabezados (un enlace
//! no cabe en un título).

use std::sync::LazyLock;

use regex::Regex;

use super::prohibidas::Mencion;
use crate::error::Tipo;

/// «la crítica», «una crítica», «esas críticas»...: el texto con el que se
/// discute (las dos palabras pueden quedar en líneas distintas).
static CRITICA: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\b(la|una|esta|esa|las|esas|estas|su|sus)\s+críticas?\b").unwrap());
/// Una frase entre comillas seguida de su original en cursiva: «...» (*...*).
static TRADUCCION: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"«[^»]+»\s*\(\*[^*)]+\*\)").unwrap());
/// Un enlace a una entrada: `referencias.md#ref-x`, o `#ref-x` desde la propia página.
static CITA: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\]\((?:referencias\.md)?#ref-[a-z0-9]+(?:-[a-z0-9]+)*\)").unwrap());
/// El principio de un elemento de lista.
static ELEMENTO: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s*(?:[-*+]|\d+\.)\s").unwrap());

const PORQUE_CRITICA: &str = "responde a un texto sin decir cuál: cita en el mismo párrafo su entrada de \
                              referencias.md (la crítica de los capítulos 10 a 14 es referencias.md#ref-mbanugo-async-await \
                              o referencias.md#ref-mbanugo-colas)";
const PORQUE_TRADUCCION: &str = "traduce una frase de un original inglés sin decir de dónde sale: cita en el mismo \
                                 párrafo la entrada de referencias.md de ese texto";

/// Un párrafo: sus líneas, con el número (desde 1) de cada una.
type Parrafo<'a> = Vec<(usize, &'a str)>;

/// Los párrafos de un texto del libro, sin bloques de código ni encabezados.
fn parrafos(texto: &str) -> Vec<Parrafo<'_>> {
    let mut todos = Vec::new();
    let mut actual: Parrafo = Vec::new();
    let mut en_bloque = false;
    fn cierra<'a>(actual: &mut Parrafo<'a>, todos: &mut Vec<Parrafo<'a>>) {
        if !actual.is_empty() {
            todos.push(std::mem::take(actual));
        }
    }
    for (i, linea) in texto.lines().enumerate() {
        let limpia = linea.trim_start().trim_start_matches('>').trim_start();
        if limpia.starts_with("```") {
            cierra(&mut actual, &mut todos);
            en_bloque = !en_bloque;
            continue;
        }
        if en_bloque {
            continue;
        }
        if limpia.is_empty() || limpia.starts_with('#') {
            cierra(&mut actual, &mut todos);
            continue;
        }
        if ELEMENTO.is_match(linea) || limpia.starts_with('|') {
            cierra(&mut actual, &mut todos);
        }
        actual.push((i + 1, linea));
        if limpia.starts_with('|') {
            cierra(&mut actual, &mut todos);
        }
    }
    cierra(&mut actual, &mut todos);
    todos
}

/// Los párrafos de un texto del libro que discuten con un texto o traducen
/// una frase suya sin citar ninguna entrada de `referencias.md`: una
/// mención por párrafo, en la línea de lo primero que encuentra.
pub fn discusiones_sin_cita(texto: &str) -> Vec<Mencion> {
    let mut salida = Vec::new();
    for parrafo in parrafos(texto) {
        let unido: String = parrafo.iter().map(|(_, l)| *l).collect::<Vec<_>>().join("\n");
        if CITA.is_match(&unido) {
            continue;
        }
        let critica = CRITICA.find(&unido).map(|m| (m, PORQUE_CRITICA));
        let traduccion = TRADUCCION.find(&unido).map(|m| (m, PORQUE_TRADUCCION));
        let primera = match (critica, traduccion) {
            (Some(a), Some(b)) => Some(std::cmp::min_by_key(a, b, |(m, _)| m.start())),
            (a, b) => a.or(b),
        };
        let primera = primera.map(|(m, porque)| {
            let linea = parrafo[0].0 + unido[..m.start()].matches('\n').count();
            let texto = m.as_str().split_whitespace().collect::<Vec<_>>().join(" ");
            Mencion { linea, texto, porque, tipo: Tipo::DiscusionSinCita }
        });
        salida.extend(primera);
    }
    salida
}

#[cfg(test)]
mod pruebas {
    use super::*;

    fn lineas(texto: &str) -> Vec<(usize, String)> {
        discusiones_sin_cita(texto).into_iter().map(|m| (m.linea, m.texto)).collect()
    }

    #[test]
    fn un_parrafo_que_responde_a_la_critica_sin_citarla_se_ve() {
        let texto = "# Capítulo\n\nLa crítica dice que async\nes fácil pero no simple.\n\n\
                     Y la crítica ([Mbanugo](referencias.md#ref-mbanugo-async-await))\nlo repite.\n";
        assert_eq!(lineas(texto), [(3, "La crítica".to_string())]);
    }

    #[test]
    fn la_cita_vale_en_cualquier_linea_del_mismo_parrafo_y_no_en_otro() {
        let citado = "Según la crítica,\nnada.\nLo dice ([x](referencias.md#ref-x)).\n";
        // «la» al final de una línea y «crítica» al principio de la siguiente también cuentan.
        assert_eq!(lineas("Uno.\n\nDos: la parte de la\ncrítica que queda.\n"), [(3, "la crítica".to_string())]);
        assert!(lineas(citado).is_empty());
        let en_otro = "Según la crítica, nada.\n\nLo dice ([x](referencias.md#ref-x)).\n";
        assert_eq!(lineas(en_otro), [(1, "la crítica".to_string())]);
        // Un enlace a otra página o a un ancla que no es una entrada no es una cita.
        let no_cita = "La crítica ([capítulo 10](10-facil.md)) y [esto](referencias.md).\n";
        assert_eq!(lineas(no_cita), [(1, "La crítica".to_string())]);
    }

    #[test]
    fn una_frase_traducida_de_un_original_ingles_sin_cita_se_ve() {
        let texto = "Lo llama el «planificador humano en el bucle» (*human scheduler\nin the loop*): ya.\n\n\
                     Una tarea (*task*) no es una cita.\n\n\
                     El «alquiler» (*rent*) de monoio ([monoio](referencias.md#ref-monoio)).\n";
        let m = discusiones_sin_cita(texto);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].linea, 1);
        assert_eq!(m[0].texto, "«planificador humano en el bucle» (*human scheduler in the loop*)");
        assert!(m[0].porque.contains("original inglés"));
    }

    #[test]
    fn cada_elemento_de_lista_y_cada_fila_es_un_parrafo_y_el_codigo_no_cuenta() {
        let texto = "- Uno: la crítica exagera.\n- Dos ([x](referencias.md#ref-x)).\n\n\
                     | a | la crítica |\n| b | [x](referencias.md#ref-x) |\n\n\
                     ```text\nla crítica\n```\n## Volviendo a la crítica\n";
        assert_eq!(lineas(texto), [(1, "la crítica".to_string()), (4, "la crítica".to_string())]);
    }

    #[test]
    fn desde_la_propia_pagina_de_referencias_vale_el_ancla_sola() {
        assert!(lineas("El curso los llama «la crítica», de [Tina](#ref-tina).\n").is_empty());
    }
}
