//! Las trazas grabadas de un programa de verdad (hoy, el Tokio del capítulo
//! 8): cada una está en el registro de su capítulo como un `[[traza]]`, igual
//! que cada cifra medida, con la máquina, la versión de Tokio y la orden que
//! la grabó:
//!
//! ```toml
//! [[traza]]
//! archivo = "book/trazas/tokio-robo.json"                         # la traza del reproductor
//! registro = "lessons/08-robo-de-trabajo/resultados/tokio-robo.json" # lo grabado, tal cual
//! que = "Una tarea larga y un ladrón"
//! orden = 'cargo run --release -p leccion-08 ... --bin grabador -- --carga robo'
//! maquina = "epyc-2026-12"
//! tokio = "1.54.1"
//! ensena = "robo"                # un tipo de paso que la traza debe tener
//! grafica = "tokio-robo"         # opcional: book/graficas/tokio-robo.svg, de `grafica-tokio-robo`
//! [[traza.cita]]                 # opcional: un paso que cita el capítulo, y lo que dice
//! paso = 13
//! dice = "roba 4 tareas"
//! ```
//!
//! [`comprobar`] lee cada traza y lo grabado y dice, en español, qué no
//! cuadra ([`coherencia`]): la forma de la traza del reproductor, la de lo
//! grabado, que cada tarea sondeada se lanzó antes, que ninguna se sondea
//! en dos trabajadores a la vez, que ningún contador baja, que la cabecera
//! coincide con el registro y con el `Cargo.lock`, y que los pasos que cita
//! el capítulo siguen diciendo lo mismo. Cada problema nombra la orden que
//! grabó la traza. `cargo curso mantenimiento trazas` las vuelve a grabar.

pub mod coherencia;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use serde::Deserialize;

use super::registro::{self, MAQUINAS, Maquina};
use crate::modelo::{Curso, Grupo};

/// Un paso de la traza que cita el capítulo: su número y un trozo de su frase.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cita {
    pub paso: usize,
    pub dice: String,
}

/// Un `[[traza]]` del registro de un capítulo.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrazaRegistrada {
    #[serde(skip)]
    pub capitulo: String,
    pub archivo: String,
    pub registro: String,
    pub que: String,
    pub orden: String,
    pub maquina: String,
    pub tokio: String,
    pub ensena: String,
    #[serde(default)]
    pub grafica: Option<String>,
    #[serde(default)]
    pub cita: Vec<Cita>,
}

/// Algo que no cuadra en una traza registrada.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problema {
    /// El archivo donde está: la traza, lo grabado o el registro.
    pub archivo: String,
    pub mensaje: String,
}

impl std::fmt::Display for Problema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.archivo, self.mensaje)
    }
}

/// Los `[[traza]]` de todos los registros, y los que no se pueden leer.
pub fn registradas(curso: &Curso) -> (Vec<TrazaRegistrada>, Vec<Problema>) {
    let (mut trazas, mut problemas) = (Vec::new(), Vec::new());
    for c in &curso.capitulos {
        let ruta = c.carpeta(Grupo::Lecciones).join("mediciones.toml");
        let Ok(texto) = fs::read_to_string(curso.raiz.join(&ruta)) else { continue };
        let archivo = ruta.display().to_string();
        let tabla: toml::Table = match toml::from_str(&texto) {
            Ok(t) => t,
            Err(e) => {
                problemas.push(Problema { archivo, mensaje: format!("no es TOML: {e}") });
                continue;
            }
        };
        let Some(lista) = tabla.get("traza") else { continue };
        for (i, v) in lista.as_array().into_iter().flatten().enumerate() {
            match TrazaRegistrada::deserialize(v.clone()) {
                Ok(mut t) => {
                    t.capitulo = c.nombre.clone();
                    trazas.push(t);
                }
                Err(e) => problemas.push(Problema {
                    archivo: archivo.clone(),
                    mensaje: format!("el [[traza]] número {} está mal escrito: {e}", i + 1),
                }),
            }
        }
    }
    (trazas, problemas)
}

/// La versión de `tokio` que fija el `Cargo.lock` de `raiz`.
pub fn tokio_del_lock(raiz: &Path) -> Option<String> {
    let lock: toml::Table = toml::from_str(&fs::read_to_string(raiz.join("Cargo.lock")).ok()?).ok()?;
    lock.get("package")?
        .as_array()?
        .iter()
        .find_map(|p| (p.get("name")?.as_str()? == "tokio").then(|| p.get("version")?.as_str().map(str::to_string))?)
}

/// Lo que hace falta, además de la traza, para comprobarla.
pub struct Contexto {
    pub maquinas: BTreeMap<String, Maquina>,
    pub tokio: Option<String>,
}

impl Contexto {
    pub fn de(raiz: &Path) -> Self {
        Contexto { maquinas: registro::maquinas(raiz).unwrap_or_default(), tokio: tokio_del_lock(raiz) }
    }
}

/// Comprueba una traza registrada contra sus dos archivos.
pub fn comprobar_una(raiz: &Path, t: &TrazaRegistrada, cx: &Contexto) -> Vec<Problema> {
    let mut p = Vec::new();
    let registro_toml = format!("lessons/{}/mediciones.toml", t.capitulo);
    let mut mal = |archivo: &str, mensaje: String| {
        p.push(Problema {
            archivo: archivo.to_string(),
            mensaje: format!(
                "{mensaje}. Vuelve a grabarla con `cargo curso mantenimiento trazas` (la grabó `{}`)",
                t.orden
            ),
        })
    };
    // El registro: la orden, la máquina y la versión.
    for e in coherencia::orden_valida(&t.orden) {
        mal(&registro_toml, format!("la orden de «{}» {e}", t.archivo));
    }
    let maquina = cx.maquinas.get(&t.maquina);
    if maquina.is_none() {
        mal(&registro_toml, format!("«{}» nombra la máquina «{}», que no está en {MAQUINAS}", t.archivo, t.maquina));
    }
    if let Some(lock) = cx.tokio.as_deref().filter(|v| *v != t.tokio) {
        mal(&registro_toml, format!("«{}» se grabó con Tokio {} y el Cargo.lock fija {lock}", t.archivo, t.tokio));
    }
    let leer = |ruta: &str| -> Result<serde_json::Value, String> {
        let texto = fs::read_to_string(raiz.join(ruta)).map_err(|e| format!("no se puede leer: {e}"))?;
        serde_json::from_str(&texto).map_err(|e| format!("no es JSON: {e}"))
    };
    let (traza, grabado) = match (leer(&t.archivo), leer(&t.registro)) {
        (Ok(a), Ok(b)) => (a, b),
        (a, b) => {
            for (ruta, r) in [(&t.archivo, a), (&t.registro, b)] {
                if let Err(e) = r {
                    mal(ruta, e);
                }
            }
            return p;
        }
    };
    for e in coherencia::reproductor(&traza, &t.ensena) {
        mal(&t.archivo, e);
    }
    for e in coherencia::grabado(&grabado) {
        mal(&t.registro, e);
    }
    let esperado = coherencia::Cabecera {
        orden: &t.orden,
        tokio: &t.tokio,
        registro: &t.registro,
        nucleos: maquina.map(|m| m.nucleos as u64),
    };
    for (ruta, e) in coherencia::cabeceras(&traza, &grabado, &esperado) {
        mal(if ruta == "traza" { &t.archivo } else { &t.registro }, e);
    }
    for c in &t.cita {
        let texto = traza["eventos"].get(c.paso.wrapping_sub(1)).and_then(|e| e["texto"].as_str());
        match texto {
            Some(x) if x.contains(&c.dice) => {}
            Some(x) => mal(
                &registro_toml,
                format!(
                    "el capítulo cita el paso {} de «{}» («{}»), pero ese paso ahora dice «{x}»: corrige el capítulo y la cita",
                    c.paso, t.archivo, c.dice
                ),
            ),
            None => mal(&registro_toml, format!("el capítulo cita el paso {}, que «{}» no tiene", c.paso, t.archivo)),
        }
    }
    p
}

/// Comprueba todas las trazas registradas del curso.
pub fn comprobar(curso: &Curso) -> Vec<Problema> {
    let (trazas, mut problemas) = registradas(curso);
    let cx = Contexto::de(&curso.raiz);
    for t in &trazas {
        problemas.extend(comprobar_una(&curso.raiz, t, &cx));
    }
    problemas
}

/// La sección «Trazas grabadas» de la página «Mediciones»: cada traza, con
/// su máquina, su versión de Tokio y la orden que la grabó (vacía si no hay).
pub fn seccion(curso: &Curso) -> String {
    let (trazas, _) = registradas(curso);
    if trazas.is_empty() {
        return String::new();
    }
    let mut t = String::from(
        "\n## Trazas grabadas\n\nEjecuciones de verdad, grabadas evento a evento, que los capítulos enseñan en el \
         reproductor. Cada ejecución es distinta: `cargo curso mantenimiento trazas --maquina CLAVE` las vuelve a \
         grabar con su orden.\n\n| traza | qué es | máquina | Tokio | orden |\n|---|---|---|---|---|\n",
    );
    for x in &trazas {
        let nombre = x.archivo.rsplit('/').next().unwrap_or(&x.archivo);
        t.push_str(&format!(
            "| [`{nombre}`]({}.md) | {} | `{}` | {} | `{}` |\n",
            x.capitulo,
            x.que.replace('|', "\\|"),
            x.maquina,
            x.tokio,
            x.orden
        ));
    }
    t
}
