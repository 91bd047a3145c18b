//! Las trazas de los reproductores, dentro de la página.
//!
//! Un capítulo pone un reproductor con
//! `<div class="reproductor" id="rep-x" data-traza="trazas/x.json"></div>`
//! (`book/reproductor/reproductor.js`). Al abrir el libro desde sus archivos
//! (`file://`), el navegador no deja que la página pida el JSON con `fetch`;
//! por eso, al construir el libro, [`incrustar`] copia la traza dentro del
//! `<div>`, en un `<script type="application/json" class="rep-datos">`, y el
//! reproductor la lee de ahí. Vale para cualquier traza de `book/trazas/`
//! sin nada más que ese marcado; el JSON se comprueba (una traza que no es
//! JSON es un error al construir) y se escribe compacto.
//!
//! mdbook no indexa el contenido de los `<script>` en la búsqueda.

use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;

use crate::error::Error;

/// Un reproductor vacío en el texto de un capítulo, en una sola línea.
static REPRODUCTOR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"<div\b([^>]*\bclass="reproductor"[^>]*)>\s*</div>"#).unwrap());
static TRAZA: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#"\bdata-traza="([^"]+)""#).unwrap());

/// Copia dentro de cada reproductor vacío de `contenido` la traza de su
/// `data-traza`, relativa a `carpeta` (la del capítulo).
pub fn incrustar(contenido: &mut String, carpeta: &Path) -> Result<(), Error> {
    if !contenido.contains("class=\"reproductor\"") {
        return Ok(());
    }
    let mut fallo = None;
    let nuevo = REPRODUCTOR.replace_all(contenido, |c: &regex::Captures| {
        let atributos = &c[1];
        let Some(ruta) = TRAZA.captures(atributos).map(|t| t[1].to_string()) else {
            return c[0].to_string();
        };
        match leer_traza(&carpeta.join(&ruta)) {
            Ok(json) => {
                format!("<div{atributos}><script type=\"application/json\" class=\"rep-datos\">{json}</script></div>")
            }
            Err(e) => {
                fallo.get_or_insert(e);
                c[0].to_string()
            }
        }
    });
    if let Some(e) = fallo {
        return Err(e);
    }
    *contenido = nuevo.into_owned();
    Ok(())
}

/// El JSON de una traza, compacto y sin `<` (que podría cerrar el `<script>`).
fn leer_traza(archivo: &Path) -> Result<String, Error> {
    let texto = std::fs::read_to_string(archivo).map_err(|e| Error::leer(archivo, e))?;
    let valor: serde_json::Value = serde_json::from_str(&texto)
        .map_err(|e| Error::mensaje(format!("la traza {} no es JSON válido: {e}", archivo.display())))?;
    Ok(valor.to_string().replace('<', "\\u003c"))
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn la_traza_entra_en_el_reproductor() {
        let carpeta = std::env::temp_dir().join(format!("curso-trazas-{}", std::process::id()));
        std::fs::create_dir_all(carpeta.join("trazas")).unwrap();
        std::fs::write(carpeta.join("trazas/t.json"), "{\"titulo\": \"a </script> b\",\n \"n\": 1}").unwrap();
        let mut texto =
            "Antes.\n\n<div class=\"reproductor\" id=\"rep-t\" data-traza=\"trazas/t.json\"></div>\n".to_string();
        incrustar(&mut texto, &carpeta).unwrap();
        let (antes, dentro) = texto.split_once("<script type=\"application/json\" class=\"rep-datos\">").unwrap();
        assert_eq!(antes, "Antes.\n\n<div class=\"reproductor\" id=\"rep-t\" data-traza=\"trazas/t.json\">");
        let (json, despues) = dentro.split_once("</script>").unwrap();
        assert_eq!(despues, "</div>\n");
        assert!(!json.contains('<') && !json.contains('\n'), "{json}");
        let valor: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(valor["titulo"], "a </script> b");
        // Una traza que falta es un error con su ruta.
        let mut otro = "<div class=\"reproductor\" data-traza=\"trazas/no.json\"></div>".to_string();
        let e = incrustar(&mut otro, &carpeta).unwrap_err().to_string();
        assert!(e.contains("no.json"), "{e}");
        let _ = std::fs::remove_dir_all(&carpeta);
    }
}
