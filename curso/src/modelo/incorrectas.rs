//! Las respuestas incorrectas conocidas: cada una es el error mismo, un
//! parche (diff unificado) contra el archivo de la solución, con una
//! cabecera que dice qué está mal y qué propiedad rompe:
//!
//! ```text
//! Qué está mal: devuelve el error de la última tarea que falla, no el de la
//!   primera de la lista.
//! Rompe: primer-fallo
//!
//! --- a/src/reparte.rs
//! +++ b/src/reparte.rs
//! @@ -23,8 +23,15 @@
//! ...
//! ```
//!
//! Viven en `solutions/NN-tema/incorrectas/EJERCICIO/CASO.patch`. Las rutas
//! del parche son relativas a la carpeta de la solución, así que también se
//! aplican a mano: `patch -p1 -d solutions/NN-tema < CASO.patch`.

use std::path::{Path, PathBuf};

use crate::error::Error;

/// La carpeta de las respuestas incorrectas, dentro de la de la solución.
pub const CARPETA: &str = "incorrectas";

/// La extensión de cada respuesta incorrecta.
pub const EXTENSION: &str = "patch";

/// Una respuesta incorrecta leída de su archivo.
#[derive(Debug, Clone, PartialEq)]
pub struct Incorrecta {
    /// El archivo del parche.
    pub ruta: PathBuf,
    /// Qué está mal, en una o varias frases.
    pub que_esta_mal: String,
    /// El id de la propiedad del ejercicio que rompe.
    pub rompe: Option<String>,
    /// El diff unificado, desde su primera línea `--- `.
    pub parche: String,
}

impl Incorrecta {
    /// Lee y entiende un parche; el error dice qué le falta.
    pub fn leer(ruta: &Path) -> Result<Incorrecta, Error> {
        let texto = std::fs::read_to_string(ruta).map_err(|e| Error::leer(ruta, e))?;
        Incorrecta::de_texto(ruta, &texto)
    }

    /// Entiende el texto de un parche (`ruta` solo sirve para los mensajes).
    pub fn de_texto(ruta: &Path, texto: &str) -> Result<Incorrecta, Error> {
        let mal = |que: &str| Error::formato(ruta, que);
        let inicio = texto
            .match_indices("--- ")
            .map(|(i, _)| i)
            .find(|&i| i == 0 || texto.as_bytes()[i - 1] == b'\n')
            .ok_or_else(|| mal("no tiene diff (ninguna línea empieza por «--- »)"))?;
        let (cabecera, parche) = texto.split_at(inicio);
        let mut que_esta_mal: Option<String> = None;
        let mut rompe = None;
        let mut en_que = false;
        for linea in cabecera.lines() {
            if let Some(resto) = linea.strip_prefix("Qué está mal:") {
                que_esta_mal = Some(resto.trim().to_string());
                en_que = true;
            } else if let Some(resto) = linea.strip_prefix("Rompe:") {
                rompe = Some(resto.trim().to_string()).filter(|r| !r.is_empty() && r != "TODO");
                en_que = false;
            } else if linea.trim().is_empty() {
                en_que = false;
            } else if en_que && linea.starts_with(char::is_whitespace) {
                let q = que_esta_mal.get_or_insert_with(String::new);
                q.push(' ');
                q.push_str(linea.trim());
            } else {
                return Err(mal(&format!(
                    "línea inesperada en la cabecera: «{linea}» (solo «Qué está mal:», «Rompe:» y líneas que \
                     continúan la explicación, con sangría)"
                )));
            }
        }
        let que_esta_mal = que_esta_mal
            .filter(|q| !q.is_empty())
            .ok_or_else(|| mal("le falta la línea «Qué está mal: ...» antes del diff"))?;
        let incorrecta = Incorrecta { ruta: ruta.to_path_buf(), que_esta_mal, rompe, parche: parche.to_string() };
        incorrecta.diff()?;
        Ok(incorrecta)
    }

    /// El nombre corto (`ultimo-fallo`).
    pub fn caso(&self) -> String {
        self.ruta.file_stem().unwrap_or_default().to_string_lossy().into_owned()
    }

    fn diff(&self) -> Result<diffy::Patch<'_, str>, Error> {
        diffy::Patch::from_str(&self.parche)
            .map_err(|e| Error::formato(&self.ruta, format!("el diff no se entiende: {e}")))
    }

    /// El archivo de la solución con el error aplicado. Si el parche ya no
    /// encaja (la solución cambió), lo dice y cómo rehacerlo.
    pub fn aplicar(&self, solucion: &str) -> Result<String, Error> {
        diffy::apply(solucion, &self.diff()?).map_err(|e| {
            Error::mensaje(format!(
                "{} ya no se aplica sobre la solución ({e}): la solución cambió desde que se escribió. Aplícalo a \
                 mano sobre una copia, arregla el conflicto y vuelve a generar el diff contra la solución de ahora",
                self.ruta.display()
            ))
        })
    }
}

/// Las respuestas incorrectas de un ejercicio, relativas a `carpeta_solucion`
/// (`incorrectas/reparte/ultimo-fallo.patch`), por orden alfabético.
pub fn listar(carpeta_solucion: &Path, ejercicio: &str) -> Result<Vec<String>, Error> {
    let carpeta = carpeta_solucion.join(CARPETA).join(ejercicio);
    if !carpeta.is_dir() {
        return Ok(Vec::new());
    }
    let mut casos: Vec<String> = std::fs::read_dir(&carpeta)
        .map_err(|e| Error::leer(&carpeta, e))?
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == EXTENSION))
        .map(|e| format!("{CARPETA}/{ejercicio}/{}", e.file_name().to_string_lossy()))
        .collect();
    casos.sort();
    Ok(casos)
}

#[cfg(test)]
mod pruebas {
    use super::*;

    const PARCHE: &str = "Qué está mal: suma uno de más,\n  siempre.\nRompe: suma\n\n--- a/src/a.rs\n+++ b/src/a.rs\n@@ -1,3 +1,3 @@\n fn suma(a: u32) -> u32 {\n-    a\n+    a + 1\n }\n";

    #[test]
    fn lee_la_cabecera_y_aplica_el_error() {
        let i = Incorrecta::de_texto(Path::new("x/mas-uno.patch"), PARCHE).unwrap();
        assert_eq!(i.que_esta_mal, "suma uno de más, siempre.");
        assert_eq!(i.rompe.as_deref(), Some("suma"));
        assert_eq!(i.caso(), "mas-uno");
        let solucion = "fn suma(a: u32) -> u32 {\n    a\n}\n";
        assert_eq!(i.aplicar(solucion).unwrap(), "fn suma(a: u32) -> u32 {\n    a + 1\n}\n");
    }

    #[test]
    fn un_parche_que_ya_no_encaja_lo_dice_y_no_aplica_nada() {
        let i = Incorrecta::de_texto(Path::new("x/mas-uno.patch"), PARCHE).unwrap();
        let otra = "fn suma(b: u32) -> u32 {\n    b\n}\n";
        let err = i.aplicar(otra).unwrap_err().to_string();
        assert!(err.contains("ya no se aplica"), "{err}");
    }

    #[test]
    fn sin_explicacion_o_con_lineas_raras_no_se_acepta() {
        let sin = PARCHE.replace("Qué está mal: suma uno de más,\n  siempre.\n", "");
        assert!(Incorrecta::de_texto(Path::new("a.patch"), &sin).unwrap_err().to_string().contains("Qué está mal"));
        let rara = PARCHE.replace("Rompe: suma", "Rompe suma");
        assert!(Incorrecta::de_texto(Path::new("a.patch"), &rara).unwrap_err().to_string().contains("inesperada"));
        let todo = PARCHE.replace("Rompe: suma", "Rompe: TODO");
        assert_eq!(Incorrecta::de_texto(Path::new("a.patch"), &todo).unwrap().rompe, None);
    }
}
