//! El cuestionario de un capítulo en HTML, para `{{#cuestionario}}`.
//!
//! Es HTML que se lee sin guion (cada pregunta es un formulario con su
//! `fieldset` y su `legend`, sus opciones son botones de opción o casillas
//! de verdad) y que `curso/tema/cuestionario.js` hace funcionar: comprobar,
//! enseñar las explicaciones, guardar el progreso en el navegador y
//! reiniciar. Las explicaciones van ya en la página, ocultas hasta que se
//! responde, y en la versión impresa se ven todas.
//!
//! El bloque no tiene líneas en blanco (para Markdown es un solo bloque de
//! HTML), así que los saltos de línea de los programas y las salidas van
//! como `&#10;`.

use std::collections::BTreeMap;
use std::path::Path;

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag};

use super::{Clase, Leido, Medicion, Opcion, Pregunta};
use crate::error::Error;
use crate::mediciones::{Maquina, RegistroDelCapitulo};

/// Lo que hace falta para escribir un cuestionario: la raíz (para leer los
/// programas) y el registro de su capítulo con las máquinas (para las
/// preguntas con número).
pub struct Contexto<'a> {
    pub raiz: &'a Path,
    pub registro: &'a RegistroDelCapitulo,
    pub maquinas: &'a BTreeMap<String, Maquina>,
}

/// Un valor del registro, leído para una pregunta con número.
#[derive(Debug, Clone, PartialEq)]
pub struct ValorMedido {
    /// Tal como está en el registro: `99,79 %`.
    pub texto: String,
    pub numero: f64,
    /// `%`, `ms`, `por segundo`...
    pub unidad: String,
    /// La clave de la máquina donde se midió.
    pub maquina: String,
}

/// El valor de `medicion` en el registro: el único dato cuyo `que` empieza
/// por `medicion.que`, y de sus valores, el de `medicion.indice`.
pub fn valor_medido(registro: &RegistroDelCapitulo, medicion: &Medicion) -> Result<ValorMedido, String> {
    let datos: Vec<_> = registro.datos.iter().filter(|d| d.que.starts_with(medicion.que.trim())).collect();
    let dato = match datos.as_slice() {
        [uno] => uno,
        [] => {
            return Err(format!(
                "ningún dato de {} tiene un «que» que empiece por «{}»",
                registro.ruta(),
                medicion.que
            ));
        }
        varios => {
            return Err(format!(
                "{} datos de {} empiezan por «{}»; alarga el principio hasta que sea uno",
                varios.len(),
                registro.ruta(),
                medicion.que
            ));
        }
    };
    if !matches!(dato.como, crate::mediciones::Como::Medido { .. } | crate::mediciones::Como::Calculo { .. }) {
        return Err(format!(
            "«{}» es un {}: una pregunta con número pregunta por algo medido",
            dato.nombre(),
            dato.como.tipo()
        ));
    }
    let texto = dato.valores.get(medicion.indice).ok_or_else(|| {
        format!("el dato «{}» tiene {} valores y se pide el {}", dato.nombre(), dato.valores.len(), medicion.indice)
    })?;
    let unificado = crate::mediciones::unificar_espacios(texto);
    let corte = unificado.find(|c: char| !(c.is_ascii_digit() || c == ',' || c == ' ')).unwrap_or(unificado.len());
    let (numero, unidad) = unificado.split_at(corte);
    let numero: f64 =
        numero.replace(' ', "").replace(',', ".").parse().map_err(|_| format!("«{texto}» no es un número"))?;
    if medicion.margen == 0 || medicion.margen > 100 {
        return Err(format!("el margen de «{}» debe estar entre 1 y 100 (%)", medicion.que));
    }
    Ok(ValorMedido {
        texto: unificado.clone(),
        numero,
        unidad: unidad.trim().to_string(),
        maquina: dato.maquina.clone().unwrap_or_else(|| "referencia".to_string()),
    })
}

/// El cuestionario entero, en HTML.
pub fn html(leido: &Leido, ctx: &Contexto) -> Result<String, Error> {
    let problemas = super::problemas(ctx.raiz, leido);
    if !problemas.is_empty() {
        return Err(Error::mensaje(format!("{}: {}", leido.ruta, problemas.join("; "))));
    }
    let total = leido.cuestionario.pregunta.len();
    let mut h = format!(
        "## Comprueba lo que has entendido\n\n<section class=\"cuestionario\" data-cuestionario=\"{}\" \
         data-version=\"{}\" aria-label=\"Cuestionario del capítulo\">\n",
        leido.capitulo,
        leido.version()
    );
    h.push_str(&format!(
        "<p class=\"cuestionario-ayuda\">{total} preguntas para ver si te has quedado con lo importante del \
         capítulo. Cada explicación enlaza con la sección que lo cuenta. Tus respuestas se guardan solo en este \
         navegador.</p>\n<p class=\"cuestionario-progreso\" aria-live=\"polite\"></p>\n"
    ));
    for (i, p) in leido.cuestionario.pregunta.iter().enumerate() {
        let id = format!("c{}-{}", &leido.capitulo[..2], p.id);
        h.push_str(&pregunta(p, &id, i + 1, total, ctx).map_err(|m| Error::mensaje(format!("{}: {m}", leido.ruta)))?);
    }
    h.push_str(
        "<div class=\"cuestionario-pie\"><button type=\"button\" class=\"cuestionario-reiniciar\">Reiniciar el \
         cuestionario</button></div>\n</section>\n",
    );
    Ok(h)
}

fn pregunta(p: &Pregunta, id: &str, n: usize, total: usize, ctx: &Contexto) -> Result<String, String> {
    let clase = match p.tipo {
        Clase::Eleccion => "eleccion",
        Clase::Imprime => "imprime",
        Clase::Compila => "compila",
        Clase::Termina => "termina",
        Clase::Numero => "numero",
    };
    let mut h = format!(
        "<form class=\"pregunta\" id=\"{id}\" data-id=\"{}\" data-tipo=\"{clase}\" data-varias=\"{}\" novalidate>\n\
         <fieldset>\n<legend><span class=\"pregunta-numero\">Pregunta {n} de {total}</span> \
         <span class=\"pregunta-clase\">{}</span></legend>\n<div class=\"pregunta-enunciado\">{}</div>\n",
        p.id,
        p.varias,
        p.tipo.etiqueta(p.varias),
        una_linea(&markdown(&p.enunciado))
    );
    if let Some(programa) = &p.programa {
        let codigo = std::fs::read_to_string(ctx.raiz.join(programa)).map_err(|e| format!("{programa}: {e}"))?;
        h.push_str(&format!(
            "<pre class=\"pregunta-programa\" tabindex=\"0\"><code class=\"language-rust noplayground\">{}</code></pre>\n",
            en_pre(codigo.trim_end())
        ));
    }
    match &p.medicion {
        Some(m) => h.push_str(&numero(p, m, id, ctx)?),
        None => h.push_str(&opciones(p, id)),
    }
    h.push_str(
        "<div class=\"pregunta-acciones\"><button type=\"submit\" class=\"pregunta-comprobar\">Comprobar</button></div>\n\
         <p class=\"pregunta-veredicto\" role=\"status\" tabindex=\"-1\"></p>\n</fieldset>\n</form>\n",
    );
    Ok(h)
}

fn opciones(p: &Pregunta, id: &str) -> String {
    let tipo = if p.varias { "checkbox" } else { "radio" };
    let (si, no) = if p.varias { ("Cierta.", "Falsa.") } else { ("Correcta.", "Incorrecta.") };
    let mut h = String::from("<ul class=\"pregunta-opciones\">\n");
    for (i, o) in p.opcion.iter().enumerate() {
        let oid = format!("{id}-{}", i + 1);
        h.push_str(&format!(
            "<li class=\"opcion\" data-correcta=\"{}\"><label class=\"opcion-etiqueta\" for=\"{oid}\"><input \
             type=\"{tipo}\" name=\"{id}\" id=\"{oid}\" value=\"{}\"> <span class=\"opcion-texto\">{}</span></label>\
             <div class=\"opcion-explicacion\" hidden><strong class=\"opcion-marca\">{}</strong> {}</div></li>\n",
            o.correcta,
            i + 1,
            texto_de_la_opcion(o),
            if o.correcta { si } else { no },
            una_linea(&en_linea(&markdown(&o.explicacion)))
        ));
    }
    h.push_str("</ul>\n");
    h
}

/// El texto de una opción: el suyo, y debajo la salida que afirma, si la hay.
fn texto_de_la_opcion(o: &Opcion) -> String {
    let texto = o.texto.as_deref().map(|t| en_linea(&markdown(t))).unwrap_or_default();
    match &o.salida {
        Some(s) if s.trim().is_empty() => format!("{texto} <span class=\"opcion-sin-salida\">(no imprime nada)</span>"),
        Some(s) => format!("{texto}<code class=\"opcion-salida\">{}</code>", en_pre(s.trim_end())),
        None => texto,
    }
}

fn numero(p: &Pregunta, m: &Medicion, id: &str, ctx: &Contexto) -> Result<String, String> {
    let v = valor_medido(ctx.registro, m)?;
    let maquina = ctx.maquinas.get(&v.maquina).ok_or_else(|| format!("la máquina «{}» no existe", v.maquina))?;
    let (minimo, maximo) = (v.numero * (1.0 - m.margen as f64 / 100.0), v.numero * (1.0 + m.margen as f64 / 100.0));
    let unidad = match v.unidad.as_str() {
        "" => String::new(),
        "s" => ", en segundos".to_string(),
        "veces" => " (cuántas veces)".to_string(),
        otra => format!(", en {}", escapar(otra)),
    };
    Ok(format!(
        "<div class=\"pregunta-campo\"><label for=\"{id}-valor\">Tu respuesta{unidad}</label> <input type=\"text\" \
         inputmode=\"decimal\" autocomplete=\"off\" id=\"{id}-valor\" name=\"{id}\" data-valor=\"{}\" \
         data-margen=\"{}\"></div>\n<div class=\"pregunta-explicacion\" hidden><p>La lección midió <strong>{}</strong> \
         en la {}: {}, {}. Vale cualquier respuesta entre {} y {}.</p>{}</div>\n",
        v.numero,
        m.margen,
        escapar(&v.texto),
        escapar(&maquina.nombre),
        escapar(&maquina.cpu),
        escapar(&maquina.fecha),
        con_coma(minimo),
        con_coma(maximo),
        una_linea(&markdown(p.explicacion.as_deref().unwrap_or_default()))
    ))
}

/// Un número como lo escribe el libro ([`medidas::numero`]: coma decimal,
/// miles separados a partir de cinco cifras), con a lo sumo dos decimales.
fn con_coma(x: f64) -> String {
    let texto = medidas::numero(x, 2);
    texto.trim_end_matches('0').trim_end_matches(',').to_string()
}

/// Markdown en HTML, como lo escribe mdbook (puntuación tipográfica,
/// tablas), con los enlaces a `pagina.md` convertidos en `pagina.html`.
pub fn markdown(texto: &str) -> String {
    let opciones = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_SMART_PUNCTUATION;
    let eventos = Parser::new_ext(texto, opciones).map(|e| match e {
        Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
            Event::Start(Tag::Link { link_type, dest_url: a_html(dest_url), title, id })
        }
        otro => otro,
    });
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, eventos);
    sin_porcentajes_en_los_enlaces(&html)
}

/// pulldown-cmark escribe `#qu%C3%A9-hace` donde mdbook escribe
/// `#qué-hace`: los enlaces, como los de mdbook (sus anclas llevan tildes).
fn sin_porcentajes_en_los_enlaces(html: &str) -> String {
    let mut salida = String::with_capacity(html.len());
    let mut resto = html;
    while let Some(i) = resto.find("href=\"") {
        let inicio = i + "href=\"".len();
        let fin = resto[inicio..].find('"').map_or(resto.len(), |f| inicio + f);
        salida.push_str(&resto[..inicio]);
        let destino = &resto[inicio..fin];
        let mut bytes = Vec::with_capacity(destino.len());
        let b = destino.as_bytes();
        let mut j = 0;
        while j < b.len() {
            let hex = |k: usize| b.get(k).and_then(|c| (*c as char).to_digit(16));
            match (b[j], hex(j + 1), hex(j + 2)) {
                (b'%', Some(alto), Some(bajo)) if alto >= 8 => {
                    bytes.push((alto * 16 + bajo) as u8);
                    j += 3;
                }
                (c, _, _) => {
                    bytes.push(c);
                    j += 1;
                }
            }
        }
        salida.push_str(&String::from_utf8(bytes).unwrap_or_else(|_| destino.to_string()));
        resto = &resto[fin..];
    }
    salida.push_str(resto);
    salida
}

/// `otra.md#x` → `otra.html#x`; lo demás, igual.
fn a_html(destino: CowStr<'_>) -> CowStr<'_> {
    if destino.contains("://") || destino.starts_with('#') {
        return destino;
    }
    match destino.split_once(".md") {
        Some((pagina, resto)) if resto.is_empty() || resto.starts_with('#') => format!("{pagina}.html{resto}").into(),
        _ => destino,
    }
}

/// Un párrafo solo, sin su `<p>`: para lo que va dentro de una etiqueta.
fn en_linea(html: &str) -> String {
    let recortado = html.trim();
    match recortado.strip_prefix("<p>").and_then(|r| r.strip_suffix("</p>")) {
        Some(dentro) if !dentro.contains("<p>") => dentro.to_string(),
        _ => recortado.to_string(),
    }
}

/// HTML sin saltos de línea fuera de `<pre>` (dentro, como `&#10;`): sin
/// líneas en blanco, Markdown no corta el bloque.
fn una_linea(html: &str) -> String {
    let mut salida = String::with_capacity(html.len());
    let mut resto = html.trim();
    while let Some(inicio) = resto.find("<pre") {
        salida.push_str(&resto[..inicio].replace('\n', " "));
        let fin = resto[inicio..].find("</pre>").map_or(resto.len(), |f| inicio + f + "</pre>".len());
        salida.push_str(&resto[inicio..fin].replace('\n', "&#10;"));
        resto = &resto[fin..];
    }
    salida.push_str(&resto.replace('\n', " "));
    salida
}

/// Texto para dentro de `<pre>` o de un `<code>` con saltos: escapado, con
/// los saltos como `&#10;`.
fn en_pre(texto: &str) -> String {
    escapar(texto).replace('\n', "&#10;")
}

fn escapar(texto: &str) -> String {
    texto.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn los_enlaces_a_paginas_van_al_html_y_no_hay_lineas_en_blanco() {
        let h = una_linea(&markdown("Mira [esto](04-x.md#pin) y [aquello](#arriba).\n\n```text\na\n\nb\n```\n"));
        assert!(h.contains("href=\"04-x.html#pin\"") && h.contains("href=\"#arriba\""), "{h}");
        assert!(markdown("[a](#qué-hace)").contains("href=\"#qué-hace\""));
        assert!(!h.contains('\n'), "{h}");
        assert!(h.contains("a&#10;&#10;b"), "{h}");
    }

    #[test]
    fn un_numero_del_registro_se_lee_con_su_unidad() {
        let registro: RegistroDelCapitulo = RegistroDelCapitulo {
            capitulo: "01-x".into(),
            titulo: "x".into(),
            genera: vec![],
            datos: vec![crate::mediciones::Dato {
                valores: vec!["55 994 por segundo".into()],
                que: "Peticiones por segundo sin esperar".into(),
                maquina: None,
                como: crate::mediciones::Como::Calculo { cuenta: "1 / 17,9 µs".into() },
            }],
            mal_formados: vec![],
            razones: vec![],
        };
        let m = Medicion { que: "Peticiones por".into(), indice: 0, margen: 10 };
        let v = valor_medido(&registro, &m).unwrap();
        assert_eq!((v.numero, v.unidad.as_str(), v.maquina.as_str()), (55994.0, "por segundo", "referencia"));
        let falta = Medicion { que: "Otra cosa".into(), indice: 0, margen: 10 };
        assert!(valor_medido(&registro, &falta).unwrap_err().contains("ningún dato"));
        assert_eq!(con_coma(97.7942), "97,79");
        assert_eq!(con_coma(20.0), "20");
        assert_eq!(con_coma(21121.9), "21 121,9");
        assert_eq!(con_coma(100.0), "100");
    }
}
