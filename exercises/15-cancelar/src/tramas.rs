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

#[allow(unused_imports)]
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
        let _ = (&mut self.lector, &mut self.pendiente, self.maximo);
        todo!("lee con `read` y guarda lo leído en `self.pendiente`; devuelve una trama cuando esté completa")
    }
}
