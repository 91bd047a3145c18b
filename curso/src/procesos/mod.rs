//! El único sitio que arranca programas: cargo, git, hunspell, node, Chromium
//! y los ejecutables de pruebas que compila la verificación.
//!
//! - `cargo`: el de la variable `CARGO` (la pone cargo al ejecutar
//!   `cargo curso`) o el del `PATH`, sin las variables que el cargo de fuera
//!   deja y que cambiarían la compilación de dentro (ver [`Proceso::cargo`]).
//! - La carpeta de compilación: la que diga `cargo metadata`, que tiene en
//!   cuenta `CARGO_TARGET_DIR` y la configuración ([`directorio_target`]).
//! - Límite de tiempo sin sondear ([`Proceso::con_limite`], con
//!   `wait-timeout`).
//! - Los mensajes JSON de cargo, con tipo: [`cargo`].

pub mod cargo;

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

use crate::error::Error;

/// Lo que el cargo de fuera (el de `cargo curso`, el de `cargo test`) deja en
/// el entorno y no debe cambiar un cargo lanzado desde aquí.
const VARIABLES_DE_FUERA: &[&str] = &["CARGO_MANIFEST_DIR", "CARGO_PRIMARY_PACKAGE", "RUSTC_WORKSPACE_WRAPPER"];

/// Un programa por lanzar, con un nombre para los mensajes de error.
#[derive(Debug)]
pub struct Proceso {
    orden: Command,
    /// Cómo se nombra en los errores: `cargo`, `git`...
    nombre: String,
    /// Qué hacer si no arranca (se añade al error).
    pista: Option<String>,
}

/// Lo que dejó un programa al terminar.
#[derive(Debug, Clone)]
pub struct Salida {
    pub estado: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

impl Salida {
    pub fn exito(&self) -> bool {
        self.estado.success()
    }
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
}

/// Lo que pasó al ejecutar un programa con límite de tiempo.
#[derive(Debug, Clone)]
pub struct Ejecucion {
    /// Terminó, y con éxito.
    pub exito: bool,
    /// No terminó a tiempo y se mató.
    pub colgada: bool,
    /// Su salida estándar y la de errores, mezcladas en el orden en que las escribió.
    pub salida: String,
    /// Lo que tardó.
    pub segundos: f64,
}

impl Proceso {
    /// Un programa cualquiera (un ejecutable de pruebas, `rustc`).
    pub fn programa(programa: impl AsRef<OsStr>) -> Proceso {
        let programa = programa.as_ref();
        let nombre = Path::new(programa).display().to_string();
        Proceso { orden: Command::new(programa), nombre, pista: None }
    }

    /// `cargo`: el de `CARGO` o el del `PATH`, sin las variables del cargo
    /// de fuera. Su carpeta de compilación es la de `CARGO_TARGET_DIR`
    /// (absoluta, así no cambia con [`Proceso::en`]) o, sin ella, la que diga
    /// el espacio de trabajo; [`Proceso::target`] elige otra.
    pub fn cargo() -> Proceso {
        let mut p = Proceso::programa(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
        p.nombre = "cargo".into();
        for var in VARIABLES_DE_FUERA {
            p.orden.env_remove(var);
        }
        if let Some(t) = target_de_fuera() {
            p.orden.env("CARGO_TARGET_DIR", t);
        }
        p
    }

    /// `git`, en la carpeta `raiz`.
    pub fn git(raiz: &Path) -> Proceso {
        let mut p = Proceso::programa("git");
        p.orden.current_dir(raiz);
        p.pista = Some("hace falta git".into());
        p
    }

    /// `hunspell`.
    pub fn hunspell() -> Proceso {
        let mut p = Proceso::programa("hunspell");
        p.pista = Some("instálalo (en Debian: apt-get install hunspell hunspell-es)".into());
        p
    }

    /// `node`.
    pub fn node() -> Proceso {
        let mut p = Proceso::programa("node");
        p.pista = Some("instala Node.js".into());
        p
    }

    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Proceso {
        self.orden.arg(arg);
        self
    }
    pub fn args<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(mut self, args: I) -> Proceso {
        self.orden.args(args);
        self
    }
    /// La carpeta donde se ejecuta.
    pub fn en(mut self, carpeta: &Path) -> Proceso {
        self.orden.current_dir(carpeta);
        self
    }
    pub fn env(mut self, clave: impl AsRef<OsStr>, valor: impl AsRef<OsStr>) -> Proceso {
        self.orden.env(clave, valor);
        self
    }
    pub fn env_remove(mut self, clave: impl AsRef<OsStr>) -> Proceso {
        self.orden.env_remove(clave);
        self
    }
    /// La carpeta de compilación de cargo (`CARGO_TARGET_DIR`).
    pub fn target(self, carpeta: &Path) -> Proceso {
        self.env("CARGO_TARGET_DIR", carpeta)
    }
    /// Sin entrada estándar (un programa que la leyera no espera a nadie).
    pub fn sin_entrada(mut self) -> Proceso {
        self.orden.stdin(Stdio::null());
        self
    }

    /// La orden, para los mensajes: `cargo test -p x`.
    pub fn describir(&self) -> String {
        let args: Vec<String> = self.orden.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        format!("{} {}", self.nombre, args.join(" ")).trim_end().to_string()
    }

    fn no_arranca(&self, e: std::io::Error) -> Error {
        Error::Lanzar { programa: self.nombre.clone(), fuente: Arc::new(e), pista: self.pista.clone() }
    }

    /// Lo ejecuta y recoge su salida (sin mirar si terminó bien).
    pub fn salida(mut self) -> Result<Salida, Error> {
        let s = self.orden.stdin(Stdio::null()).output().map_err(|e| self.no_arranca(e))?;
        Ok(Salida { estado: s.status, stdout: s.stdout, stderr: s.stderr })
    }

    /// Como [`Proceso::salida`], pero termina mal → [`Error::Fallo`] con su stderr.
    pub fn salida_con_exito(self) -> Result<Salida, Error> {
        let orden = self.describir();
        let s = self.salida()?;
        if s.exito() { Ok(s) } else { Err(Error::Fallo { orden, detalle: s.stderr().trim().to_string() }) }
    }

    /// Lo ejecuta con `entrada` en su entrada estándar y recoge su salida.
    pub fn salida_con_entrada(mut self, entrada: &[u8]) -> Result<Salida, Error> {
        self.orden.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut hijo = self.orden.spawn().map_err(|e| self.no_arranca(e))?;
        let mut tubo = hijo.stdin.take().expect("entrada con tubo");
        let copia = entrada.to_vec();
        // Escribe desde otro hilo: si el programa responde mientras lee, los
        // dos tubos no se bloquean.
        let escritor = std::thread::spawn(move || {
            let _ = tubo.write_all(&copia);
        });
        let s = hijo.wait_with_output().map_err(|e| self.no_arranca(e))?;
        let _ = escritor.join();
        Ok(Salida { estado: s.status, stdout: s.stdout, stderr: s.stderr })
    }

    /// Lo ejecuta con la terminal de quien lo llama (lo que escribe se ve) y
    /// devuelve su estado.
    pub fn estado(mut self) -> Result<ExitStatus, Error> {
        self.orden.status().map_err(|e| self.no_arranca(e))
    }

    /// Lo ejecuta con la terminal de quien lo llama y solo dice si terminó
    /// bien: un fallo es [`Error::Fallo`].
    pub fn con_exito(self) -> Result<(), Error> {
        let orden = self.describir();
        if self.estado()?.success() { Ok(()) } else { Err(Error::Fallo { orden, detalle: String::new() }) }
    }

    /// Lo ejecuta sin mostrar nada; pasado `limite` lo da por colgado y lo
    /// mata. Su salida y sus errores van juntos a un archivo temporal (un tubo
    /// podría llenarse, o quedarse abierto en un proceso nieto).
    pub fn con_limite(mut self, limite: Duration) -> Result<Ejecucion, Error> {
        let tmp =
            std::env::temp_dir().join(format!("curso-prueba-{}-{:?}", std::process::id(), std::thread::current().id()));
        let archivo = std::fs::File::create(&tmp).map_err(|e| Error::crear(&tmp, e))?;
        let copia = archivo.try_clone().map_err(|e| Error::crear(&tmp, e))?;
        self.orden.stdin(Stdio::null()).stdout(copia).stderr(archivo);
        let inicio = Instant::now();
        let mut hijo = self.orden.spawn().map_err(|e| self.no_arranca(e))?;
        let espera = hijo.wait_timeout(limite).map_err(|e| self.no_arranca(e))?;
        let (estado, colgada) = match espera {
            Some(estado) => (Some(estado), false),
            None => {
                let _ = hijo.kill();
                let _ = hijo.wait();
                (None, true)
            }
        };
        let segundos = inicio.elapsed().as_secs_f64();
        let salida = std::fs::read_to_string(&tmp).unwrap_or_default();
        let _ = std::fs::remove_file(&tmp);
        Ok(Ejecucion { exito: estado.is_some_and(|e| e.success()), colgada, salida, segundos })
    }
}

/// La carpeta de compilación del espacio de trabajo `raiz`, la que usaría
/// `cargo build` allí: se la pregunta a `cargo metadata` (así cuentan
/// `CARGO_TARGET_DIR` y `build.target-dir` de la configuración de cargo); si
/// cargo no responde, `CARGO_TARGET_DIR` o `raiz/target`.
pub fn directorio_target(raiz: &Path) -> PathBuf {
    let salida = Proceso::cargo().args(["metadata", "--no-deps", "--format-version", "1", "--offline"]).en(raiz);
    let metadatos = salida.salida_con_exito().ok().and_then(|s| cargo::Metadatos::de_json(&s.stdout).ok());
    metadatos.map(|m| m.target_directory).or_else(target_de_fuera).unwrap_or_else(|| raiz.join("target"))
}

/// `CARGO_TARGET_DIR`, absoluta: como cargo, una ruta relativa lo es a la
/// carpeta actual.
fn target_de_fuera() -> Option<PathBuf> {
    let t = PathBuf::from(std::env::var_os("CARGO_TARGET_DIR").filter(|t| !t.is_empty())?);
    Some(std::path::absolute(&t).unwrap_or(t))
}

/// Los nombres con los que se busca Chromium o Chrome en el `PATH`.
pub const NOMBRES_DE_CHROMIUM: &[&str] =
    &["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"];

/// Chromium o Chrome: la variable `CHROMIUM` o el primero que esté en el `PATH`.
pub fn buscar_chromium() -> Result<PathBuf, Error> {
    if let Some(ruta) = std::env::var_os("CHROMIUM") {
        let ruta = PathBuf::from(ruta);
        return if ruta.is_file() {
            Ok(ruta)
        } else {
            Err(Error::mensaje(format!("CHROMIUM dice {}, pero ahí no hay ningún archivo", ruta.display())))
        };
    }
    let camino = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&camino) {
        for nombre in NOMBRES_DE_CHROMIUM {
            if dir.join(nombre).is_file() {
                return Ok(dir.join(nombre));
            }
        }
    }
    Err(Error::mensaje(format!(
        "no encuentro Chromium ni Chrome ({}) en el PATH; instálalo (Debian: apt-get install chromium) o dime dónde \
         con CHROMIUM=ruta",
        NOMBRES_DE_CHROMIUM.join(", ")
    )))
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn un_programa_colgado_se_mata_al_llegar_al_limite() {
        let r = Proceso::programa("sleep").arg("5").con_limite(Duration::from_millis(200)).unwrap();
        assert!(r.colgada && !r.exito);
        let r = Proceso::programa("sh").args(["-c", "echo uno; echo dos >&2"]).con_limite(Duration::from_secs(20));
        let r = r.unwrap();
        assert!(r.exito && !r.colgada && r.salida == "uno\ndos\n", "{r:?}");
    }

    #[test]
    fn un_programa_que_no_existe_es_un_error_con_su_nombre() {
        let e = Proceso::programa("no-existe-este-programa").salida().unwrap_err();
        assert!(matches!(&e, Error::Lanzar { programa, .. } if programa == "no-existe-este-programa"), "{e}");
    }

    #[test]
    fn la_carpeta_de_compilacion_la_dice_cargo() {
        let raiz = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let target = directorio_target(raiz);
        assert!(target.is_absolute(), "{}", target.display());
        if std::env::var_os("CARGO_TARGET_DIR").is_none() {
            assert_eq!(target, raiz.join("target"));
        }
    }
}
