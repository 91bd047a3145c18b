//! Ejercicio 1: un lector de tramas que se puede cancelar sin perder nada.
//!
//! Una trama (*frame*) es una longitud de 4 bytes, un `u32` big-endian, y
//! detrás esa cantidad de bytes de contenido (cero también vale: una trama
//! vacía). `siguiente` devuelve el contenido de la siguiente trama,
//! `Ok(None)` si el flujo se acaba justo entre dos tramas, y un error
//! `UnexpectedEof` si se acaba a mitad de una.
//!
//! Una trama de más de `maximo` bytes de contenido es un error `InvalidData`,
//! como en el `LengthDelimitedCodec` de tokio-util: una de `maximo` justos
//! vale, una de `maximo + 1` no. Recházala en cuanto tengas su cabecera, sin
//! esperar al contenido: si no, una cabecera que anuncia 4 GiB te haría
//! guardar (y esperar) 4 GiB. Tras ese error el flujo está desincronizado y
//! no hace falta seguir leyendo. Un error del lector se devuelve tal cual y
//! no tira nada: lo que ya estaba pendiente sigue ahí para la llamada
//! siguiente.
//!
//! Lo importante: `siguiente` tiene que ser seguro ante la cancelación
//! (*cancel safe*). Si alguien suelta el *future* en cualquiera de sus
//! `.await` (por ejemplo, porque otra rama de un `select!` ganó), ningún
//! byte leído se pierde: la siguiente llamada sigue donde se quedó. Por eso
//! los bytes leídos se guardan en `self.pendiente`, no en una variable local
//! del *future*.

use std::io;

use tokio::io::{AsyncRead, AsyncReadExt};

/// Lee tramas con longitud de un `AsyncRead`.
pub struct LectorDeTramas<R> {
    lector: R,
    /// Bytes ya leídos que todavía no forman parte de ninguna trama devuelta.
    pendiente: Vec<u8>,
    /// El contenido más largo que se acepta, en bytes.
    maximo: usize,
}

impl<R: AsyncRead + Unpin> LectorDeTramas<R> {
    /// Un lector que acepta tramas de hasta `maximo` bytes de contenido.
    pub fn new(lector: R, maximo: usize) -> Self {
        LectorDeTramas { lector, pendiente: Vec::new(), maximo }
    }

    /// El contenido de la siguiente trama. Se puede cancelar en cualquier
    /// `.await` sin perder bytes.
    pub async fn siguiente(&mut self) -> io::Result<Option<Vec<u8>>> {
        loop {
            // ¿Hay ya una trama completa en lo pendiente? Entonces no hace falta esperar.
            if self.pendiente.len() >= 4 {
                let cabecera: [u8; 4] = self.pendiente[..4].try_into().expect("4 bytes");
                let largo = u32::from_be_bytes(cabecera) as usize;
                // Con la cabecera basta para saber que es demasiado larga.
                if largo > self.maximo {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("una trama de {largo} bytes pasa del máximo de {}", self.maximo),
                    ));
                }
                if self.pendiente.len() >= 4 + largo {
                    let contenido = self.pendiente[4..4 + largo].to_vec();
                    self.pendiente.drain(..4 + largo);
                    return Ok(Some(contenido));
                }
            }
            // `read` es seguro ante la cancelación: si se suelta aquí, no leyó nada.
            // Lo que sí lee va directo a `self`, que sobrevive al future.
            let mut trozo = [0u8; 1024];
            let leidos = self.lector.read(&mut trozo).await?;
            if leidos == 0 {
                return if self.pendiente.is_empty() {
                    Ok(None)
                } else {
                    Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        format!("el flujo se acabó a mitad de una trama ({} bytes sueltos)", self.pendiente.len()),
                    ))
                };
            }
            self.pendiente.extend_from_slice(&trozo[..leidos]);
        }
    }
}
