//! La lectura de un `[[dato]]` del registro con errores que dicen su clase.
//!
//! `toml` da sus errores de deserialización como texto. Aquí el dato se lee
//! con un `Deserializer` propio sobre el valor TOML (`ValorToml`) cuyo
//! error (`ErrorDeDato`) guarda la clase que serde le comunica (falta un
//! campo, sobra uno, el tipo no existe): con ella se explica en español qué
//! le pasa al dato, sin revisar sus campos a mano.

use serde::Deserialize;

use super::registro::{Dato, DatoIlegible, DatoMalFormado};

/// Lee un `[[dato]]` ya separado del resto del archivo.
pub fn leer_dato(tabla: toml::Table) -> Result<Dato, DatoIlegible> {
    // Los textos de un campo (una lista de textos o un texto), para nombrar el dato.
    let textos = |clave: &str| -> Vec<String> {
        match tabla.get(clave) {
            Some(toml::Value::Array(a)) => a.iter().filter_map(|x| x.as_str()).map(String::from).collect(),
            Some(toml::Value::String(s)) => vec![s.clone()],
            _ => Vec::new(),
        }
    };
    let (valores, que) = (textos("valores"), textos("que").concat());
    let tipo = tabla.get("tipo").and_then(|t| t.as_str()).unwrap_or_default().to_string();
    let motivo = match Dato::deserialize(ValorToml::<ErrorDeDato>::new(toml::Value::Table(tabla))) {
        Ok(dato) if !dato.valores.is_empty() => return Ok(dato),
        Ok(_) => DatoMalFormado::Otro(String::new()),
        Err(ErrorDeDato::FaltaCampo("tipo")) => DatoMalFormado::TipoDesconocido(None),
        Err(ErrorDeDato::FaltaCampo(campo)) => DatoMalFormado::FaltaCampo { tipo, campo: campo.to_string() },
        Err(ErrorDeDato::TipoDesconocido(t)) => DatoMalFormado::TipoDesconocido(Some(t)),
        Err(ErrorDeDato::CampoDesconocido(campo)) => DatoMalFormado::CampoDeMas { tipo, campo },
        Err(ErrorDeDato::Otro(m)) => DatoMalFormado::Otro(m),
    };
    Err(DatoIlegible { valores, que, motivo })
}

/// Lo que falla al leer un dato, con lo que hace falta para explicarlo.
#[derive(Debug)]
enum ErrorDeDato {
    FaltaCampo(&'static str),
    CampoDesconocido(String),
    TipoDesconocido(String),
    Otro(String),
}

impl std::fmt::Display for ErrorDeDato {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for ErrorDeDato {}

impl serde::de::Error for ErrorDeDato {
    fn custom<T: std::fmt::Display>(mensaje: T) -> Self {
        ErrorDeDato::Otro(mensaje.to_string())
    }
    fn missing_field(campo: &'static str) -> Self {
        ErrorDeDato::FaltaCampo(campo)
    }
    fn unknown_field(campo: &str, _: &'static [&'static str]) -> Self {
        ErrorDeDato::CampoDesconocido(campo.to_string())
    }
    fn unknown_variant(variante: &str, _: &'static [&'static str]) -> Self {
        ErrorDeDato::TipoDesconocido(variante.to_string())
    }
}

/// Un valor TOML como `Deserializer` con el error `E` que se elija (el de
/// `toml` solo da texto): así los errores de serde llegan con su clase
/// (falta un campo, sobra uno, tipo desconocido).
struct ValorToml<E>(toml::Value, std::marker::PhantomData<E>);

impl<E> ValorToml<E> {
    fn new(valor: toml::Value) -> Self {
        ValorToml(valor, std::marker::PhantomData)
    }
}

impl<'de, E: serde::de::Error> serde::de::IntoDeserializer<'de, E> for ValorToml<E> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de, E: serde::de::Error> serde::Deserializer<'de> for ValorToml<E> {
    type Error = E;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, visitante: V) -> Result<V::Value, E> {
        use serde::de::value::{MapDeserializer, SeqDeserializer};
        match self.0 {
            toml::Value::String(s) => visitante.visit_string(s),
            toml::Value::Integer(i) => visitante.visit_i64(i),
            toml::Value::Float(x) => visitante.visit_f64(x),
            toml::Value::Boolean(b) => visitante.visit_bool(b),
            toml::Value::Datetime(d) => visitante.visit_string(d.to_string()),
            toml::Value::Array(a) => visitante.visit_seq(SeqDeserializer::new(a.into_iter().map(ValorToml::new))),
            toml::Value::Table(t) => {
                visitante.visit_map(MapDeserializer::new(t.into_iter().map(|(k, v)| (k, ValorToml::new(v)))))
            }
        }
    }

    fn deserialize_option<V: serde::de::Visitor<'de>>(self, visitante: V) -> Result<V::Value, E> {
        visitante.visit_some(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit unit_struct
        newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

#[cfg(test)]
mod pruebas {
    use super::*;
    use crate::mediciones::registro::Como;

    fn leer(texto: &str) -> Result<Dato, DatoMalFormado> {
        leer_dato(texto.parse().unwrap()).map_err(|e| e.motivo)
    }

    #[test]
    fn cada_tipo_lleva_su_campo_y_solo_el_suyo() {
        let medido = leer("valores = [\"1 ms\"]\nque = \"x\"\ntipo = \"medido\"\norden = \"cargo run -p a\"\n");
        assert_eq!(medido.unwrap().como, Como::Medido { orden: "cargo run -p a".into(), linea: None });
        let falta = leer("valores = [\"1 ms\"]\nque = \"x\"\ntipo = \"citado\"\n");
        assert_eq!(falta, Err(DatoMalFormado::FaltaCampo { tipo: "citado".into(), campo: "referencia".into() }));
        let de_mas = leer("valores = [\"1 ms\"]\nque = \"x\"\ntipo = \"calculo\"\ncuenta = \"a\"\norden = \"b\"\n");
        assert_eq!(de_mas, Err(DatoMalFormado::CampoDeMas { tipo: "calculo".into(), campo: "orden".into() }));
        let sin_tipo = leer("valores = [\"1 ms\"]\nque = \"x\"\n");
        assert_eq!(sin_tipo, Err(DatoMalFormado::TipoDesconocido(None)));
        let otro = leer("valores = [\"1 ms\"]\nque = \"x\"\ntipo = \"medida\"\n");
        assert_eq!(otro, Err(DatoMalFormado::TipoDesconocido(Some("medida".into()))));
    }
}
