//! Lo que sabe git de los archivos que una orden de mantenimiento reescribe.
//!
//! Una orden que reescribe archivos versionados (los hashes de los iniciales,
//! las gráficas, los resultados de las mediciones) no debe pisar un trabajo sin
//! guardar: antes mira si esos archivos difieren de `HEAD`, y después dice qué
//! cambió.

use std::path::Path;

use crate::error::Error;
use crate::procesos::Proceso;

/// Los archivos bajo `rutas` que difieren de `HEAD` o que git no conoce,
/// como los escribe `git status --porcelain` (`" M ruta"`, `"?? ruta"`).
pub fn distintos_de_head(raiz: &Path, rutas: &[&str]) -> Result<Vec<String>, Error> {
    let salida = Proceso::git(raiz)
        .args(["status", "--porcelain", "--untracked-files=all", "--"])
        .args(rutas)
        .salida_con_exito()?;
    Ok(salida.stdout().lines().map(str::to_string).filter(|l| !l.is_empty()).collect())
}
