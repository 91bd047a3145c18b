//! Lo que sabe git de los archivos que una orden de mantenimiento reescribe.
//!
//! Una orden que reescribe archivos versionados (los hashes de los iniciales,
//! las gráficas, los resultados de las mediciones) no debe pisar un trabajo sin
//! guardar: antes mira si esos archivos difieren de `HEAD`, y después dice qué
//! cambió.

use std::path::Path;
use std::process::Command;

/// Los archivos bajo `rutas` que difieren de `HEAD` o que git no conoce,
/// como los escribe `git status --porcelain` (`" M ruta"`, `"?? ruta"`).
pub fn distintos_de_head(raiz: &Path, rutas: &[&str]) -> Result<Vec<String>, String> {
    let salida = Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=all", "--"])
        .args(rutas)
        .current_dir(raiz)
        .output()
        .map_err(|e| format!("no puedo ejecutar git: {e}"))?;
    if !salida.status.success() {
        return Err(format!("git status falló: {}", String::from_utf8_lossy(&salida.stderr).trim()));
    }
    Ok(String::from_utf8_lossy(&salida.stdout).lines().map(str::to_string).filter(|l| !l.is_empty()).collect())
}
