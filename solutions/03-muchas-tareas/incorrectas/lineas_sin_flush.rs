//! Respuesta incorrecta plausible: escribe las respuestas en un `BufWriter`
//! y solo lo vacía (flush) al final. El cliente que espera cada respuesta
//! antes de mandar la siguiente orden se queda esperando para siempre.

use std::io;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, BufWriter};

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

pub async fn atiende_lineas<S>(conexion: S) -> io::Result<usize>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let (lector, escritor) = tokio::io::split(conexion);
    let mut lineas = BufReader::new(lector).lines();
    let mut escritor = BufWriter::new(escritor);
    let mut contestadas = 0;
    while let Some(linea) = lineas.next_line().await? {
        match responde(linea.trim_end_matches('\r')) {
            Respuesta::Linea(r) => {
                escritor.write_all(format!("{r}\n").as_bytes()).await?;
                contestadas += 1;
            }
            Respuesta::Adios => {
                escritor.write_all(b"ADIOS\n").await?;
                contestadas += 1;
                break;
            }
        }
    }
    escritor.flush().await?;
    Ok(contestadas)
}
