//! Una interfaz de lectura por finalización (*completion*), al estilo de las
//! de tokio-uring y monoio: la lectura se lleva el búfer (lo «alquila») y lo
//! devuelve junto con el resultado. Mientras la lectura está en vuelo, el
//! búfer no es tuyo: es del sistema, que puede estar escribiendo en él.
//!
//! No es un ejercicio: el primer ejercicio la usa, y las pruebas traen una
//! fuente de imitación en la que ellas deciden cuándo termina cada lectura.

use std::future::Future;
use std::io;

/// Algo de lo que se lee por finalización.
pub trait Fuente {
    /// La lectura en vuelo. Si la sueltas antes de que termine, el búfer se
    /// queda con el sistema y lo que se lea en él se pierde contigo.
    type Lectura: Future<Output = (io::Result<usize>, Vec<u8>)> + Unpin;

    /// Empieza a leer en la capacidad libre de `bufer` (de `len()` a
    /// `capacity()`). Al terminar devuelve cuántos bytes leyó (0 es el
    /// final de los datos, o que no quedaba sitio) y el mismo búfer, con
    /// `len()` aumentada en lo leído.
    fn leer(&mut self, bufer: Vec<u8>) -> Self::Lectura;
}
