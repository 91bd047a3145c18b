//! `{{#errores-tipicos}}`: en las notas para quien enseña de un capítulo,
//! las respuestas incorrectas conocidas de cada ejercicio, plegadas: qué
//! está mal, qué propiedad rompe y el error mismo en unas líneas de diff.

use std::fmt::Write;

use crate::error::Error;
use crate::modelo::{Curso, Ejercicio};

/// Los errores típicos de los ejercicios del capítulo `capitulo`.
pub fn errores_tipicos(curso: &Curso, capitulo: &str) -> Result<String, Error> {
    let del_capitulo: Vec<&Ejercicio> = curso.ejercicios_de(capitulo).collect();
    if del_capitulo.is_empty() {
        return Err(Error::mensaje(format!(
            "book/{capitulo}.md usa {{{{#errores-tipicos}}}}, pero no tiene ejercicios en la lista"
        )));
    }
    let mut t = String::from(
        "**Errores típicos.** Cada uno es una respuesta plausible que las pruebas rechazan; la verificación \
         completa lo comprueba. Úsalos para preguntar a la sala qué prueba lo caza.\n\n",
    );
    for e in del_capitulo {
        if e.incorrectas.is_empty() {
            continue;
        }
        let _ = writeln!(t, "<details>\n<summary>«{}»: {} errores típicos</summary>\n", e.nombre, e.incorrectas.len());
        for ruta in &e.incorrectas {
            let inc = e.leer_incorrecta(&curso.raiz, ruta)?;
            let rompe = inc.rompe.as_deref().and_then(|id| e.propiedad(id)).map(|p| p.texto.as_str());
            let _ = write!(t, "- **{}**", inc.que_esta_mal);
            if let Some(texto) = rompe {
                let _ = write!(t, " Rompe: {}", texto.trim_end_matches('.'));
                t.push('.');
            }
            let _ = writeln!(t, " (`{}`)\n", e.carpeta_solucion().join(ruta).display());
            let _ = writeln!(t, "  ```diff\n{}  ```\n", sangrar(&cuerpo(&inc.parche)));
        }
        t.push_str("</details>\n\n");
    }
    Ok(t)
}

/// El diff sin sus dos líneas de cabecera (`--- a/...`, `+++ b/...`): el
/// archivo ya lo dice el texto.
fn cuerpo(parche: &str) -> String {
    parche.lines().filter(|l| !l.starts_with("--- ") && !l.starts_with("+++ ")).map(|l| format!("{l}\n")).collect()
}

fn sangrar(texto: &str) -> String {
    texto.lines().map(|l| if l.is_empty() { "\n".to_string() } else { format!("  {l}\n") }).collect()
}
