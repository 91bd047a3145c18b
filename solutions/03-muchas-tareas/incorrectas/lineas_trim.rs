//! Respuesta incorrecta plausible: quita el final de línea con `trim()`.
//! Se lleva el `\n` y el `\r`, pero también los espacios del principio y
//! del final, que eran parte de la orden (`ECO  hola ` debe contestar
//! ` hola `).

use std::io;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

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
    // BufReader también deja escribir: pasa las escrituras a la conexión.
    let mut conexion = BufReader::new(conexion);
    let mut linea = String::new();
    let mut contestadas = 0;
    loop {
        linea.clear();
        if conexion.read_line(&mut linea).await? == 0 {
            return Ok(contestadas); // el cliente cerró
        }
        let orden = linea.trim();
        match responde(orden) {
            Respuesta::Linea(texto) => {
                conexion.write_all(format!("{texto}\n").as_bytes()).await?;
                contestadas += 1;
            }
            Respuesta::Adios => {
                conexion.write_all(b"ADIOS\n").await?;
                return Ok(contestadas + 1);
            }
        }
    }
}
