//! La página «Mediciones» del libro (la directiva `{{#mediciones}}`): las
//! máquinas, las razones clave y el registro de cada capítulo.

use std::fmt::Write;

use super::registro::{self, Como, Dato};
use super::valores::{con_coma, cuantas_veces};
use crate::error::Error;
use crate::modelo::Curso;
use crate::referencias;

fn celda(texto: &str) -> String {
    texto.replace('|', "\\|").replace('\n', " ")
}

/// La última columna de la tabla: cómo se sabe un dato, con su enlace.
fn como_se_sabe(entradas: &[referencias::Referencia], d: &Dato) -> String {
    match &d.como {
        Como::Medido { orden, .. } => format!("medido: `{orden}`"),
        Como::Citado { referencia: r } => {
            let titulo = entradas.iter().find(|e| e.id == *r).map_or(r.as_str(), |e| e.titulo.as_str());
            format!("citado: [{}](referencias.md#{}{r})", celda(titulo), referencias::PREFIJO)
        }
        Como::Parametro { donde } => {
            let archivo = donde.split(':').next().unwrap_or_default();
            match archivo.strip_prefix("book/") {
                Some(pagina) => format!("parámetro: [en el texto]({pagina})"),
                None => format!("parámetro: [`{donde}`](../{archivo})"),
            }
        }
        Como::Calculo { cuenta } => format!("cuenta: {}", celda(cuenta)),
    }
}

/// La página «Mediciones»: las máquinas, las razones clave y el registro de
/// cada capítulo.
pub fn pagina(curso: &Curso) -> Result<String, Error> {
    let registros = registro::cargar(curso)?;
    let maquinas = registro::maquinas(&curso.raiz)?;
    // Sin página de referencias, los citados se nombran por su identificador.
    let entradas = referencias::cargar(&curso.raiz).map(|(e, _)| e).unwrap_or_default();
    let mut t = String::new();
    for (clave, m) in &maquinas {
        let _ = writeln!(
            t,
            "- `{clave}`: {}. {}, {} núcleos, {} de memoria, {}, rustc {}; {}.",
            m.nombre, m.cpu, m.nucleos, m.memoria, m.sistema, m.rustc, m.fecha
        );
    }
    t.push_str(
        "\n## Las razones que importan\n\nLa cuenta la hace esta página con los dos valores medidos.\n\n\
         | qué se compara | uno | otro | cuántas veces | capítulo |\n|---|---|---|---|---|\n",
    );
    for r in &registros {
        let numero = curso.capitulo(&r.capitulo).map(|c| c.numero.to_string()).unwrap_or_default();
        for z in &r.razones {
            let veces = cuantas_veces(&z.mayor, &z.menor).map(con_coma).unwrap_or_else(|| "?".into());
            let _ = writeln!(
                t,
                "| {} | {} | {} | **×{veces}** | [{numero}]({}.md) |",
                celda(&z.que),
                z.mayor.replace(' ', "\u{a0}"),
                z.menor.replace(' ', "\u{a0}"),
                r.capitulo
            );
        }
    }
    for r in registros.iter().filter(|r| !r.datos.is_empty()) {
        // El enlace al capítulo va fuera del título: un enlace dentro de un
        // título de mdBook queda anidado en el suyo (y sin nombre).
        let _ = write!(t, "\n## {}\n\n", r.titulo);
        let _ =
            write!(t, "Capítulo: [{}]({}.md). Registro: [`{}`](../{}).\n\n", r.titulo, r.capitulo, r.ruta(), r.ruta());
        t.push_str("| valor | qué es | cómo se sabe |\n|---|---|---|\n");
        for d in &r.datos {
            let mut que = celda(&d.que);
            if let Some(m) = d.maquina.as_deref().filter(|m| *m != "referencia") {
                let _ = write!(que, " (máquina `{m}`)");
            }
            let _ = writeln!(t, "| {} | {que} | {} |", d.valores.join(", "), como_se_sabe(&entradas, d));
        }
    }
    t.push_str(&super::trazas::seccion(curso));
    Ok(t)
}
