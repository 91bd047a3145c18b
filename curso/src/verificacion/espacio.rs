//! El espacio de trabajo de la verificación: su `Cargo.toml` (el de la
//! raíz, con las variantes como miembros y su perfil) y el paquete que
//! iguala sus características con las de `cargo test`, para que las
//! dependencias ya compiladas no se compilen otra vez.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use super::variantes::escribir;
use crate::error::Error;
use crate::modelo::normalizar;

/// El `Cargo.toml` del espacio de trabajo (el de la raíz con otros
/// miembros) y su `Cargo.lock`.
pub(super) fn escribir_espacio<'a>(
    raiz: &Path,
    base: &Path,
    variantes: impl Iterator<Item = &'a String>,
) -> Result<(), Error> {
    let ruta = raiz.join("Cargo.toml");
    let texto = fs::read_to_string(&ruta).map_err(|e| Error::leer(&ruta, e))?;
    let mut manifiesto: toml::Table = toml::from_str(&texto).map_err(|e| Error::formato(&ruta, e))?;
    let ws = manifiesto
        .get_mut("workspace")
        .and_then(|w| w.as_table_mut())
        .ok_or_else(|| Error::formato(&ruta, "no tiene [workspace]"))?;
    ws.insert("members".into(), toml::Value::Array(vec!["crates/*".into()]));
    ws.remove("default-members");
    // Las dependencias de la raíz con `path` (`medidas`, `graficas`...) son
    // relativas a la raíz: en el espacio de verificación, absolutas.
    if let Some(deps) = ws.get_mut("dependencies").and_then(|d| d.as_table_mut()) {
        for (_, dep) in deps.iter_mut() {
            if let Some(t) = dep.as_table_mut()
                && let Some(toml::Value::String(ruta)) = t.get("path")
            {
                let absoluta = normalizar(&raiz.join(ruta)).to_string_lossy().into_owned();
                t.insert("path".into(), absoluta.into());
            }
        }
    }
    // Cada variante, sin información de depuración y en una sola unidad de
    // código: nadie va a depurarlas, y compilan y enlazan antes. Solo ellas,
    // por su nombre: el perfil de las dependencias queda como en la raíz y,
    // con las mismas características ([`escribir_unificador`]), son las que
    // ya compiló `cargo test`, que no se compilan otra vez.
    let perfil = manifiesto
        .entry("profile")
        .or_insert_with(|| toml::Value::Table(Default::default()))
        .as_table_mut()
        .map(|p| p.entry("dev").or_insert_with(|| toml::Value::Table(Default::default())))
        .and_then(|d| d.as_table_mut())
        .map(|d| d.entry("package").or_insert_with(|| toml::Value::Table(Default::default())))
        .and_then(|p| p.as_table_mut());
    if let Some(paquetes) = perfil {
        for variante in variantes {
            let ajustes = toml::Table::from_iter([
                ("debug".to_string(), toml::Value::from(false)),
                ("codegen-units".to_string(), toml::Value::from(1)),
            ]);
            paquetes.insert(variante.clone(), ajustes.into());
        }
    }
    escribir(&base.join("Cargo.toml"), toml::to_string(&manifiesto).expect("TOML válido").as_bytes())?;
    let lock = raiz.join("Cargo.lock");
    if lock.is_file() {
        let bytes = fs::read(&lock).map_err(|e| Error::leer(&lock, e))?;
        escribir(&base.join("Cargo.lock"), &bytes)?;
    }
    Ok(())
}

/// El paquete que no se compila pero iguala las características: ver
/// [`escribir_unificador`].
pub const UNIFICADOR: &str = "unifica-caracteristicas";

/// Escribe en `dir` un paquete vacío que depende de todo lo que usan los
/// miembros de `cargo test` (los `default-members` de la raíz: dependencias
/// normales, de pruebas y de cada plataforma, sin las opcionales ni las de
/// ruta), con la unión de sus características.
///
/// Cargo iguala las características de una dependencia entre los paquetes
/// que compila a la vez: en `cargo test`, Tokio lleva `mio` con `log`
/// porque `curso` usa `notify`, y en las variantes, sin este paquete, no.
/// Con otras características, Tokio y todo lo que cuelga de él se
/// compilarían otra vez para la verificación. Se elige con `-p` al compilar
/// las variantes (así cuenta para las características) sin pedir ninguno
/// de sus objetivos: no se compila nada suyo.
pub(super) fn escribir_unificador(
    raiz: &Path,
    dir: &Path,
    version: &str,
    escritos: &mut BTreeSet<PathBuf>,
) -> Result<(), Error> {
    let ruta = raiz.join("Cargo.toml");
    let texto = fs::read_to_string(&ruta).map_err(|e| Error::leer(&ruta, e))?;
    let manifiesto: toml::Table = toml::from_str(&texto).map_err(|e| Error::formato(&ruta, e))?;
    let ws = manifiesto.get("workspace").and_then(|w| w.as_table());
    let de_ruta = |nombre: &str| {
        ws.and_then(|w| w.get("dependencies")).and_then(|d| d.get(nombre)).and_then(|d| d.get("path")).is_some()
    };
    let patrones: Vec<String> = ws
        .and_then(|w| w.get("default-members").or_else(|| w.get("members")))
        .and_then(|m| m.as_array())
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    let mut miembros = Vec::new();
    for patron in &patrones {
        match patron.strip_suffix("/*") {
            Some(carpeta) => {
                let mut dentro: Vec<PathBuf> =
                    fs::read_dir(raiz.join(carpeta)).into_iter().flatten().flatten().map(|e| e.path()).collect();
                dentro.sort();
                miembros.extend(dentro);
            }
            None => miembros.push(raiz.join(patron)),
        }
    }
    // Por tabla (`dependencies` o `target.'cfg(..)'.dependencies`) y nombre:
    // la dependencia, con la unión de sus características.
    let mut tablas: BTreeMap<Option<String>, BTreeMap<String, toml::Table>> = BTreeMap::new();
    for miembro in miembros {
        let ruta = miembro.join("Cargo.toml");
        let Ok(texto) = fs::read_to_string(&ruta) else { continue };
        let m: toml::Table = toml::from_str(&texto).map_err(|e| Error::formato(&ruta, e))?;
        let mut fuentes: Vec<(Option<String>, &toml::Value)> =
            ["dependencies", "dev-dependencies"].iter().filter_map(|t| m.get(*t).map(|d| (None, d))).collect();
        for (cfg, t) in m.get("target").and_then(|t| t.as_table()).into_iter().flatten() {
            for clave in ["dependencies", "dev-dependencies"] {
                fuentes.extend(t.get(clave).map(|d| (Some(cfg.clone()), d)));
            }
        }
        for (cfg, deps) in fuentes {
            for (nombre, dep) in deps.as_table().into_iter().flatten() {
                let dep = match dep {
                    toml::Value::String(v) => toml::Table::from_iter([("version".to_string(), v.clone().into())]),
                    toml::Value::Table(t) => t.clone(),
                    _ => continue,
                };
                let opcional = dep.get("optional").and_then(|o| o.as_bool()) == Some(true);
                let es_de_ruta = dep.contains_key("path")
                    || (dep.get("workspace").and_then(|w| w.as_bool()) == Some(true) && de_ruta(nombre));
                if opcional || es_de_ruta {
                    continue;
                }
                let clave = dep.get("package").and_then(|p| p.as_str()).unwrap_or(nombre).to_string();
                let union = tablas.entry(cfg.clone()).or_default().entry(clave).or_insert_with(|| {
                    let mut base = dep.clone();
                    base.remove("features");
                    base
                });
                // Con que uno las quiera, van las características por defecto.
                if dep.get("default-features").and_then(|d| d.as_bool()) != Some(false) {
                    union.remove("default-features");
                }
                let mut caracteristicas: BTreeSet<String> = union
                    .get("features")
                    .and_then(|f| f.as_array())
                    .into_iter()
                    .flatten()
                    .chain(dep.get("features").and_then(|f| f.as_array()).into_iter().flatten())
                    .filter_map(|f| f.as_str().map(str::to_string))
                    .collect();
                if !caracteristicas.is_empty() {
                    let lista = std::mem::take(&mut caracteristicas).into_iter().map(toml::Value::from).collect();
                    union.insert("features".into(), toml::Value::Array(lista));
                }
            }
        }
    }
    let mut paquete = toml::Table::new();
    paquete.insert("name".into(), UNIFICADOR.into());
    paquete.insert("version".into(), version.into());
    paquete.insert("edition".into(), "2024".into());
    paquete.insert("publish".into(), false.into());
    let mut m = toml::Table::new();
    m.insert("package".into(), paquete.into());
    let mut objetivos = toml::Table::new();
    for (cfg, deps) in tablas {
        let deps = toml::Value::Table(deps.into_iter().map(|(n, d)| (n, toml::Value::Table(d))).collect());
        match cfg {
            None => {
                m.insert("dependencies".into(), deps);
            }
            Some(cfg) => {
                objetivos.insert(cfg, toml::Value::Table(toml::Table::from_iter([("dependencies".to_string(), deps)])));
            }
        }
    }
    if !objetivos.is_empty() {
        m.insert("target".into(), objetivos.into());
    }
    let manifiesto = dir.join("Cargo.toml");
    escribir(&manifiesto, toml::to_string(&m).expect("TOML válido").as_bytes())?;
    let lib = dir.join("src/lib.rs");
    escribir(&lib, b"//! Sin codigo: solo iguala las caracteristicas de las dependencias.\n")?;
    escritos.extend([manifiesto, lib]);
    Ok(())
}
