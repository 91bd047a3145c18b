//! Ejercicio 1: un lector de tramas que se puede cancelar sin perder nada.
//!
//! Una trama (*frame*) es una longitud de 4 bytes, un `u32` big-endian, y
//! detrás esa cantidad de bytes de contenido. `siguiente` devuelve el
//! contenido de la siguiente trama, `Ok(None)` si el flujo se acaba justo
//! entre dos tramas, y un error `UnexpectedEof` si se acaba a mitad de una.
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
}

impl<R: AsyncRead + Unpin> LectorDeTramas<R> {
    pub fn new(lector: R) -> Self {
        LectorDeTramas { lector, pendiente: Vec::new() }
    }

    /// El contenido de la siguiente trama. Se puede cancelar en cualquier
    /// `.await` sin perder bytes.
    pub async fn siguiente(&mut self) -> io::Result<Option<Vec<u8>>> {
        let _ = (&mut self.lector, &mut self.pendiente);
        todo!("lee con `read` y guarda lo leído en `self.pendiente`; devuelve una trama cuando esté completa")
    }
}
