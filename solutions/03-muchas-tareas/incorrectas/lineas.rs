//! Respuesta incorrecta plausible: trata cada lectura como una línea. Con un
//! cliente que escribe una línea y espera la respuesta, funciona; cuando una
//! línea llega partida, o dos llegan juntas, contesta mal.

use std::io;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

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

pub async fn atiende_lineas<S>(mut conexion: S) -> io::Result<usize>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut bufer = [0u8; 1024];
    let mut contestadas = 0;
    loop {
        let n = conexion.read(&mut bufer).await?;
        if n == 0 {
            return Ok(contestadas);
        }
        let texto = String::from_utf8_lossy(&bufer[..n]);
        match responde(texto.trim_end_matches(['\n', '\r'])) {
            Respuesta::Linea(r) => {
                conexion.write_all(format!("{r}\n").as_bytes()).await?;
                contestadas += 1;
            }
            Respuesta::Adios => {
                conexion.write_all(b"ADIOS\n").await?;
                return Ok(contestadas + 1);
            }
        }
    }
}
