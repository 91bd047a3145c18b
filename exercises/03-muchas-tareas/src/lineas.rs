//! Ejercicio 3: un protocolo de líneas.
//!
//! El cliente manda órdenes, una por línea, y el servidor contesta cada una
//! con otra línea. Qué contestar ya lo sabe [`responde`]; tu trabajo es el
//! de en medio: partir lo que llega en líneas y escribir las respuestas.
//!
//! La trampa: TCP no sabe de líneas ni de mensajes. Una lectura puede traer
//! media línea, o tres líneas y un trozo de la cuarta. Las pruebas mandan
//! exactamente eso.
//!
//! `atiende_lineas` contesta cada línea en orden, termina cuando el cliente
//! cierra o después de contestar a `ADIOS`, y devuelve cuántas líneas ha
//! contestado.

use std::io;

use tokio::io::{AsyncRead, AsyncWrite};

/// Lo que hay que contestar a una línea.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Respuesta {
    /// Contesta este texto (sin el salto de línea, que pones tú).
    Linea(String),
    /// Contesta `ADIOS` y cierra.
    Adios,
}

/// El protocolo, línea a línea. Recibe la línea sin su `\n` (ni `\r\n`).
///
/// - `ECO texto` contesta `texto`;
/// - `MAYUS texto` contesta `TEXTO`;
/// - `SUMA 1 2 3` contesta `6`;
/// - `ADIOS` contesta `ADIOS` y cierra;
/// - cualquier otra cosa contesta una línea que empieza por `ERROR`.
pub fn responde(linea: &str) -> Respuesta {
    let (orden, resto) = linea.split_once(' ').unwrap_or((linea, ""));
    match orden {
        "ECO" => Respuesta::Linea(resto.to_string()),
        "MAYUS" => Respuesta::Linea(resto.to_uppercase()),
        "SUMA" => match resto.split_whitespace().map(str::parse::<i64>).sum::<Result<i64, _>>() {
            Ok(suma) => Respuesta::Linea(suma.to_string()),
            Err(_) => Respuesta::Linea("ERROR SUMA solo suma enteros".into()),
        },
        "ADIOS" => Respuesta::Adios,
        otra => Respuesta::Linea(format!("ERROR orden desconocida: {otra}")),
    }
}

/// Contesta cada línea que llega por `conexion`, hasta que se cierre o hasta
/// `ADIOS`. Devuelve cuántas líneas contestó.
pub async fn atiende_lineas<S>(conexion: S) -> io::Result<usize>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let _ = conexion;
    todo!("envuelve la conexión en tokio::io::BufReader y usa read_line en un bucle")
}
