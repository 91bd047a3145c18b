//! Ejercicio 3: un despachador que termina todo lo que aceptó.
//!
//! `despacha(capacidad, simultaneos, atiende)` crea una cola acotada de
//! `capacidad` y lanza una tarea despachadora que saca trabajos de la cola y
//! atiende cada uno con `atiende`, en su propia tarea, con **como mucho
//! `simultaneos` trabajos en marcha a la vez**. Devuelve el emisor de la cola
//! (quien llega ofrece trabajos con `try_send`: si la cola está llena, el
//! rechazo es inmediato) y el `JoinHandle` del despachador.
//!
//! Cuando se sueltan todos los emisores, la cola se cierra. Entonces el
//! despachador deja de sacar trabajos, **espera a que terminen todos los que
//! ya había empezado** y devuelve cuántos atendió. Es un apagado ordenado
//! (*graceful shutdown*): lo aceptado se termina, nada se pierde.
//!
//! Y mientras sirve, no acumula: un despachador corre días y atiende
//! millones de trabajos, así que lo que ya terminó se recoge enseguida, no
//! solo en el apagado. Las pruebas cuentan la memoria del servicio tras
//! atender mil quinientos trabajos: no debe crecer con cada uno.
//!
//! Piezas útiles: `tokio::sync::mpsc::channel`, `tokio::sync::Semaphore` y
//! `tokio::task::JoinSet`. `capacidad` y `simultaneos` son al menos 1.

use std::future::Future;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// Arranca el despachador. Devuelve el emisor de la cola y el `JoinHandle`
/// que, al cerrarse la cola, da cuántos trabajos se atendieron.
pub fn despacha<T, F, Fut>(capacidad: usize, simultaneos: usize, atiende: F) -> (mpsc::Sender<T>, JoinHandle<usize>)
where
    T: Send + 'static,
    F: Fn(T) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let _ = (capacidad, simultaneos, atiende);
    todo!("un mpsc::channel(capacidad), y una tarea que pide un permiso, saca un trabajo y lo lanza en un JoinSet")
}
