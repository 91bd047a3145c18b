//! Lo que cargo escribe para otros programas, con tipo: los mensajes de
//! `--message-format=json`, la salida de `cargo metadata` y los tiempos de
//! cada unidad del informe de `--timings`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::Error;

/// Un mensaje de `cargo build --message-format=json` (los que se usan aquí).
#[derive(Debug, Deserialize)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum Mensaje {
    /// Una unidad compilada: una biblioteca, un ejecutable, unas pruebas.
    CompilerArtifact(Artefacto),
    /// Un error o un aviso del compilador.
    CompilerMessage { manifest_path: PathBuf, message: Diagnostico },
    /// Los demás (`build-script-executed`, `build-finished`...).
    #[serde(other)]
    Otro,
}

#[derive(Debug, Deserialize)]
pub struct Artefacto {
    pub manifest_path: PathBuf,
    pub target: Objetivo,
    pub profile: Perfil,
    /// El ejecutable, si lo es (unas pruebas, un programa).
    pub executable: Option<PathBuf>,
}

impl Artefacto {
    /// ¿Es de esta clase (`test`, `bin`, `lib`)?
    pub fn es(&self, clase: &str) -> bool {
        self.target.kind.iter().any(|k| k == clase)
    }
}

#[derive(Debug, Deserialize)]
pub struct Objetivo {
    pub kind: Vec<String>,
    pub name: String,
}

#[derive(Debug, Deserialize)]
pub struct Perfil {
    /// Compilado para pruebas (`cfg(test)`).
    pub test: bool,
}

#[derive(Debug, Deserialize)]
pub struct Diagnostico {
    /// `error`, `warning`...
    pub level: String,
    /// El mensaje como lo escribiría cargo en la terminal.
    pub rendered: Option<String>,
    #[serde(default)]
    pub spans: Vec<Tramo>,
}

impl Diagnostico {
    /// Los archivos que el error señala (sus tramos principales).
    pub fn archivos(&self) -> Vec<String> {
        self.spans.iter().filter(|s| s.is_primary).map(|s| s.file_name.clone()).collect()
    }
}

#[derive(Debug, Deserialize)]
pub struct Tramo {
    pub file_name: String,
    pub is_primary: bool,
}

/// Los mensajes de una salida de `--message-format=json`; las líneas que no
/// son mensajes (o son de otra clase) se saltan.
pub fn mensajes(salida: &[u8]) -> impl Iterator<Item = Mensaje> + '_ {
    salida.split(|b| *b == b'\n').filter_map(|l| serde_json::from_slice::<Mensaje>(l).ok())
}

/// Lo que se usa de `cargo metadata --format-version 1`.
#[derive(Debug, Deserialize)]
pub struct Metadatos {
    pub packages: Vec<Paquete>,
    pub workspace_members: Vec<String>,
    pub resolve: Option<Resolucion>,
    pub target_directory: PathBuf,
}

#[derive(Debug, Deserialize)]
pub struct Paquete {
    pub id: String,
    pub name: String,
    pub version: String,
    #[serde(default)]
    pub manifest_path: PathBuf,
    /// El `default-run` de su manifiesto.
    #[serde(default)]
    pub default_run: Option<String>,
    #[serde(default)]
    pub targets: Vec<Objetivo>,
}

#[derive(Debug, Deserialize)]
pub struct Resolucion {
    pub nodes: Vec<Nodo>,
}

#[derive(Debug, Deserialize)]
pub struct Nodo {
    pub id: String,
    pub deps: Vec<Dependencia>,
}

#[derive(Debug, Deserialize)]
pub struct Dependencia {
    pub pkg: String,
}

impl Metadatos {
    /// Lee la salida de `cargo metadata`.
    pub fn de_json(json: &[u8]) -> Result<Metadatos, Error> {
        serde_json::from_slice(json).map_err(|e| Error::formato("la salida de cargo metadata", e))
    }
}

/// Los programas (`src/main.rs`, `src/bin/*.rs`) de los miembros por
/// defecto del espacio de trabajo, compilados como los compila `cargo test`.
///
/// `cargo run -p PAQUETE` resuelve las características de las dependencias
/// solo para ese paquete, sin las de desarrollo: unas opciones de Tokio
/// distintas de las de `cargo test`, y Tokio (y lo que cuelga de él) se
/// compila otra vez. `cargo build --bins --tests` sin `-p` las resuelve como
/// `cargo test`: tras un `cargo test`, no compila nada.
#[derive(Debug, Default)]
pub struct Programas {
    /// Por paquete: su programa por defecto y cada programa con su ejecutable.
    paquetes: BTreeMap<String, (Option<String>, BTreeMap<String, PathBuf>)>,
}

impl Programas {
    /// Compila los programas en `raiz` (un espacio de trabajo) y los apunta.
    pub fn compilar(raiz: &Path) -> Result<Programas, Error> {
        use crate::procesos::Proceso;
        let metadatos = Proceso::cargo().args(["metadata", "--no-deps", "--format-version", "1"]).en(raiz);
        let metadatos = Metadatos::de_json(&metadatos.salida_con_exito()?.stdout)?;
        let salida =
            Proceso::cargo().args(["build", "--bins", "--tests", "--message-format=json"]).en(raiz).salida()?;
        if !salida.exito() {
            return Err(Error::mensaje(format!("no compilan los programas del curso:\n{}", salida.stderr())));
        }
        let mut por_manifiesto: BTreeMap<PathBuf, BTreeMap<String, PathBuf>> = BTreeMap::new();
        for m in mensajes(&salida.stdout) {
            if let Mensaje::CompilerArtifact(a) = m
                && a.es("bin")
                && !a.profile.test
                && let Some(exe) = a.executable
            {
                por_manifiesto.entry(a.manifest_path).or_default().insert(a.target.name, exe);
            }
        }
        let mut programas = Programas::default();
        for p in metadatos.packages {
            if let Some(bins) = por_manifiesto.remove(&p.manifest_path) {
                let bins_del_paquete = p.targets.iter().filter(|t| t.kind.iter().any(|k| k == "bin")).count();
                let defecto = p.default_run.clone().or_else(|| {
                    (bins_del_paquete == 1)
                        .then(|| bins.keys().next().cloned())
                        .flatten()
                        .or_else(|| bins.contains_key(&p.name).then(|| p.name.clone()))
                });
                programas.paquetes.insert(p.name, (defecto, bins));
            }
        }
        Ok(programas)
    }

    /// El ejecutable que correría `cargo run -p paquete [--bin programa]`.
    pub fn ejecutable(&self, paquete: &str, programa: Option<&str>) -> Option<&Path> {
        let (defecto, bins) = self.paquetes.get(paquete)?;
        bins.get(programa.or(defecto.as_deref())?).map(PathBuf::as_path)
    }
}

/// Una unidad del informe de `cargo build --timings`.
#[derive(Debug, Deserialize)]
pub struct Unidad {
    pub name: String,
    pub version: String,
    /// Segundos que tardó en compilar.
    pub duration: f64,
}

/// Los segundos de compilación de cada paquete (nombre, versión), sumadas sus
/// unidades, del informe HTML de `--timings` (cargo estable no lo da en JSON:
/// `--timings=json` pide `-Z unstable-options`). Los datos van en el HTML
/// como una constante de JavaScript, `UNIT_DATA`, que es JSON.
pub fn tiempos_de_compilacion(informe: &Path) -> Result<BTreeMap<(String, String), f64>, Error> {
    const CONSTANTE: &str = "const UNIT_DATA = ";
    let html = std::fs::read_to_string(informe).map_err(|e| Error::leer(informe, e))?;
    let inicio = html.find(CONSTANTE).ok_or_else(|| Error::formato(informe, "no tiene UNIT_DATA"))?;
    let unidades: Vec<Unidad> = serde_json::Deserializer::from_str(&html[inicio + CONSTANTE.len()..])
        .into_iter()
        .next()
        .ok_or_else(|| Error::formato(informe, "UNIT_DATA está vacío"))?
        .map_err(|e| Error::formato(informe, format!("UNIT_DATA: {e}")))?;
    let mut duracion = BTreeMap::new();
    for u in unidades {
        *duracion.entry((u.name, u.version)).or_default() += u.duration;
    }
    Ok(duracion)
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn lee_los_mensajes_que_usa_la_verificacion() {
        let salida = br#"{"reason":"compiler-artifact","package_id":"x","manifest_path":"/a/Cargo.toml","target":{"kind":["test"],"crate_types":["bin"],"name":"ejercicios","src_path":"/a/tests/e.rs"},"profile":{"opt_level":"0","debuginfo":0,"debug_assertions":true,"overflow_checks":true,"test":true},"features":[],"filenames":["/t/e"],"executable":"/t/e","fresh":true}
no es json
{"reason":"compiler-message","package_id":"x","manifest_path":"/a/Cargo.toml","target":{"kind":["lib"],"name":"a"},"message":{"level":"error","rendered":"error: mal","spans":[{"file_name":"src/x.rs","is_primary":true},{"file_name":"src/y.rs","is_primary":false}]}}
{"reason":"build-finished","success":false}
"#;
        let m: Vec<Mensaje> = mensajes(salida).collect();
        assert_eq!(m.len(), 3);
        let Mensaje::CompilerArtifact(a) = &m[0] else { panic!("{m:?}") };
        assert!(a.es("test") && a.profile.test && a.executable.as_deref() == Some(Path::new("/t/e")));
        let Mensaje::CompilerMessage { message, .. } = &m[1] else { panic!("{m:?}") };
        assert_eq!((message.level.as_str(), message.archivos()), ("error", vec!["src/x.rs".to_string()]));
        assert!(matches!(m[2], Mensaje::Otro));
    }

    #[test]
    fn suma_los_tiempos_de_cada_paquete_del_informe_de_timings() {
        let dir = std::env::temp_dir().join(format!("curso-timings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let informe = dir.join("cargo-timing.html");
        let html = "<script>\nconst UNIT_DATA = [\n  {\"i\": 0, \"name\": \"libc\", \"version\": \"0.2.1\", \"duration\": 0.5},\n  \
                    {\"i\": 1, \"name\": \"libc\", \"version\": \"0.2.1\", \"duration\": 0.25}\n];\nconst OTRO = 1;\n</script>";
        std::fs::write(&informe, html).unwrap();
        let t = tiempos_de_compilacion(&informe).unwrap();
        assert_eq!(t.get(&("libc".to_string(), "0.2.1".to_string())), Some(&0.75));
        std::fs::write(&informe, "<html></html>").unwrap();
        assert!(matches!(tiempos_de_compilacion(&informe), Err(Error::Formato { .. })));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
