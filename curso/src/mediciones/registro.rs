//! El registro de un capítulo, `lessons/NN-tema/mediciones.toml`, y el
//! archivo de máquinas, `curso/maquinas.toml`.
//!
//! Cada `[[dato]]` se lee por separado en un [`Dato`], cuyo [`Como`] es un
//! enum con el campo que pide cada tipo (`tipo = "medido"` con su `orden`,
//! `"citado"` con su `referencia`...): un dato al que le falta su campo, o
//! que trae el de otro tipo, no se puede representar. Un dato mal escrito no
//! impide leer los demás: queda en [`RegistroDelCapitulo::mal_formados`],
//! con el motivo en español, para que la comprobación lo diga.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use serde::Deserialize;

use super::lectura::leer_dato;
use super::valores::unificar_espacios;
use crate::error::Error;
use crate::modelo::{Capitulo, Curso, Grupo};

/// El archivo de las máquinas donde se midió, relativo a la raíz.
pub const MAQUINAS: &str = "curso/maquinas.toml";

/// Un dato del registro: uno o más valores de la prosa que significan lo
/// mismo, qué son y cómo se saben.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(from = "DatoEnToml")]
pub struct Dato {
    /// Los valores tal como aparecen en la prosa («9,7 KiB»).
    pub valores: Vec<String>,
    /// Qué es, en una frase.
    pub que: String,
    /// La máquina donde se midió (por defecto, `referencia`).
    pub maquina: Option<String>,
    /// Cómo se sabe: el tipo y su campo.
    pub como: Como,
}

/// Cómo se sabe un dato (el `tipo` del registro, con el campo que pide).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Como {
    /// Lo mide una lección: `orden` es la orden que lo mide y `linea`, un
    /// trozo de la línea de su salida que lo da.
    Medido { orden: String, linea: Option<String> },
    /// Viene de una entrada de `book/referencias.md` (su identificador, sin `ref-`).
    Citado { referencia: String },
    /// Una entrada del experimento o un número de ejemplo: `donde` es el archivo que lo fija.
    Parametro { donde: String },
    /// Una cuenta con otros valores del registro.
    Calculo { cuenta: String },
}

impl Como {
    /// El nombre del tipo en el registro: `medido`.
    pub fn tipo(&self) -> &'static str {
        match self {
            Como::Medido { .. } => "medido",
            Como::Citado { .. } => "citado",
            Como::Parametro { .. } => "parametro",
            Como::Calculo { .. } => "calculo",
        }
    }

    /// El campo que pide el tipo y su valor: `("orden", "cargo run ...")`.
    pub fn campo(&self) -> (&'static str, &str) {
        match self {
            Como::Medido { orden, .. } => ("orden", orden),
            Como::Citado { referencia } => ("referencia", referencia),
            Como::Parametro { donde } => ("donde", donde),
            Como::Calculo { cuenta } => ("cuenta", cuenta),
        }
    }
}

impl Dato {
    /// La orden que lo mide, si es medido.
    pub fn orden(&self) -> Option<&str> {
        match &self.como {
            Como::Medido { orden, .. } => Some(orden),
            _ => None,
        }
    }

    /// Sus valores, separados por comas: cómo se nombra en los mensajes.
    pub fn nombre(&self) -> String {
        self.valores.join(", ")
    }
}

/// Un `[[dato]]` tal como se escribe: `tipo` dice qué variante es, y cada
/// una admite solo sus campos.
#[derive(Deserialize)]
#[serde(tag = "tipo", rename_all = "lowercase", deny_unknown_fields)]
enum DatoEnToml {
    Medido { valores: Vec<String>, que: String, maquina: Option<String>, orden: String, linea: Option<String> },
    Citado { valores: Vec<String>, que: String, maquina: Option<String>, referencia: String },
    Parametro { valores: Vec<String>, que: String, maquina: Option<String>, donde: String },
    Calculo { valores: Vec<String>, que: String, maquina: Option<String>, cuenta: String },
}

impl From<DatoEnToml> for Dato {
    fn from(d: DatoEnToml) -> Dato {
        let (valores, que, maquina, como) = match d {
            DatoEnToml::Medido { valores, que, maquina, orden, linea } => {
                (valores, que, maquina, Como::Medido { orden, linea })
            }
            DatoEnToml::Citado { valores, que, maquina, referencia } => {
                (valores, que, maquina, Como::Citado { referencia })
            }
            DatoEnToml::Parametro { valores, que, maquina, donde } => {
                (valores, que, maquina, Como::Parametro { donde })
            }
            DatoEnToml::Calculo { valores, que, maquina, cuenta } => (valores, que, maquina, Como::Calculo { cuenta }),
        };
        Dato { valores, que, maquina, como }
    }
}

/// Por qué no se pudo leer un `[[dato]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DatoMalFormado {
    /// Sin `tipo`, o con uno que no existe (`None`: sin tipo).
    TipoDesconocido(Option<String>),
    /// Le falta un campo que su tipo pide.
    FaltaCampo { tipo: String, campo: String },
    /// Trae un campo que su tipo no admite (el de otro tipo, o uno que no existe).
    CampoDeMas { tipo: String, campo: String },
    /// Un campo con un valor de otra clase (un número donde va un texto...).
    Otro(String),
}

/// Un `[[dato]]` que no se pudo leer: sus valores (si se leen) y el motivo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatoIlegible {
    pub valores: Vec<String>,
    pub que: String,
    pub motivo: DatoMalFormado,
}

impl DatoIlegible {
    /// El motivo, en español, como lo lee quien mantiene el registro.
    pub fn mensaje(&self) -> String {
        let nombre = self.valores.join(", ");
        match &self.motivo {
            _ if self.valores.is_empty() => format!("un dato sin valores («{}»)", self.que),
            DatoMalFormado::TipoDesconocido(None) => {
                format!("«{nombre}» no dice su tipo; usa medido, citado, parametro o calculo")
            }
            DatoMalFormado::TipoDesconocido(Some(t)) => {
                format!("«{nombre}» tiene tipo «{t}»; usa medido, citado, parametro o calculo")
            }
            DatoMalFormado::FaltaCampo { campo, .. } if campo == "que" => format!("«{nombre}» necesita «que»"),
            DatoMalFormado::FaltaCampo { tipo, campo } => format!("«{nombre}» es {tipo} y necesita «{campo}»"),
            DatoMalFormado::CampoDeMas { tipo, campo } => match campo.as_str() {
                "referencia" => format!("«{nombre}» no es citado; «referencia» es solo para lo citado"),
                "orden" | "linea" => {
                    format!("«{nombre}» no es medido; «orden» y «linea» son solo para lo medido")
                }
                "donde" => format!("«{nombre}» es {tipo}; «donde» es solo para los parámetros"),
                "cuenta" => format!("«{nombre}» es {tipo}; «cuenta» es solo para las cuentas"),
                otro => format!(
                    "«{nombre}»: el campo «{otro}» no existe; un dato lleva valores, que, tipo, su campo \
                     (orden, referencia, donde o cuenta) y, si acaso, linea y maquina"
                ),
            },
            DatoMalFormado::Otro(m) => format!("«{nombre}»: {m}"),
        }
    }
}

/// Un archivo de registro tal como se escribe.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Archivo {
    /// Órdenes que no dan ningún número de la prosa, pero que en modo
    /// completo escriben los resultados (`resultados/*.csv`) de las
    /// gráficas. `cargo curso mantenimiento mide` también las ejecuta.
    #[serde(default)]
    genera: Vec<String>,
    #[serde(default)]
    dato: Vec<toml::Table>,
    #[serde(default)]
    razon: Vec<Razon>,
    /// Las trazas grabadas (`[[traza]]`): las lee y las comprueba [`super::trazas`].
    #[serde(default, rename = "traza")]
    _trazas: Vec<toml::Value>,
}

/// Una de las razones que importan: cuántas veces es `mayor` respecto de
/// `menor`, dos valores medidos del mismo registro. La cuenta la hace la
/// página, no quien escribe.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Razon {
    pub que: String,
    pub mayor: String,
    pub menor: String,
}

/// El registro de un capítulo.
#[derive(Debug, Clone)]
pub struct RegistroDelCapitulo {
    /// `06-hilos-verdes`.
    pub capitulo: String,
    pub titulo: String,
    pub genera: Vec<String>,
    pub datos: Vec<Dato>,
    /// Los `[[dato]]` que no se pudieron leer.
    pub mal_formados: Vec<DatoIlegible>,
    pub razones: Vec<Razon>,
}

impl RegistroDelCapitulo {
    /// Su archivo, relativo a la raíz.
    pub fn ruta(&self) -> String {
        format!("lessons/{}/mediciones.toml", self.capitulo)
    }

    /// ¿Es `valor` uno de los valores medidos del registro?
    pub fn es_medido(&self, valor: &str) -> bool {
        let valor = unificar_espacios(valor);
        self.datos
            .iter()
            .any(|d| matches!(d.como, Como::Medido { .. }) && d.valores.iter().any(|x| unificar_espacios(x) == valor))
    }
}

/// Una máquina donde se midió.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Maquina {
    pub nombre: String,
    pub cpu: String,
    pub nucleos: u32,
    pub memoria: String,
    pub sistema: String,
    pub rustc: String,
    pub fecha: String,
}

/// Las máquinas de `curso/maquinas.toml`, por su clave.
pub fn maquinas(raiz: &Path) -> Result<BTreeMap<String, Maquina>, Error> {
    let ruta = raiz.join(MAQUINAS);
    let texto = fs::read_to_string(&ruta).map_err(|e| Error::leer(&ruta, e))?;
    toml::from_str(&texto).map_err(|e| Error::formato(MAQUINAS, e))
}

/// El registro del capítulo `capitulo` (vacío si no tiene archivo).
pub fn cargar_uno(raiz: &Path, capitulo: &Capitulo) -> Result<RegistroDelCapitulo, Error> {
    let relativa = capitulo.carpeta(Grupo::Lecciones).join("mediciones.toml");
    let archivo: Archivo = match fs::read_to_string(raiz.join(&relativa)) {
        Ok(texto) => toml::from_str(&texto).map_err(|e| Error::formato(&relativa, e))?,
        Err(_) => Archivo::default(),
    };
    let (mut datos, mut mal_formados) = (Vec::new(), Vec::new());
    for tabla in archivo.dato {
        match leer_dato(tabla) {
            Ok(d) => datos.push(d),
            Err(e) => mal_formados.push(e),
        }
    }
    Ok(RegistroDelCapitulo {
        capitulo: capitulo.nombre.clone(),
        titulo: capitulo.titulo.clone().unwrap_or_else(|| capitulo.nombre.clone()),
        genera: archivo.genera,
        datos,
        mal_formados,
        razones: archivo.razon,
    })
}

/// El registro de cada capítulo del libro, en orden.
pub fn cargar(curso: &Curso) -> Result<Vec<RegistroDelCapitulo>, Error> {
    curso.capitulos.iter().map(|c| cargar_uno(&curso.raiz, c)).collect()
}
