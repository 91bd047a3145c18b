//! Ejercicio 2: tu propio `block_on`.
//!
//! `block_on(future)` sondea `future` en el hilo que la llama hasta que
//! devuelva `Ready`, y devuelve su valor. Lo que lo hace difícil:
//!
//! - el `Waker` que le pasas al *future* tiene que servir para despertar a
//!   ESTE hilo, y se puede llamar desde cualquier otro hilo;
//! - entre un `Pending` y el siguiente `wake()`, el hilo debe dormir. Sondear
//!   una y otra vez sin que nadie te despierte (espera activa, *busy-spin*)
//!   quema un núcleo entero y las pruebas lo detectan.
//!
//! Piezas de la biblioteca estándar que te sirven: `std::pin::pin!`,
//! `std::task::Wake` (un `Arc<T>` con `T: Wake` se convierte en `Waker` con
//! `Waker::from`), `std::thread::current`, `Thread::unpark` y
//! `std::thread::park`.

use std::future::Future;

/// Sondea `future` hasta que termine, durmiendo el hilo entre sondeos.
pub fn block_on<F: Future>(future: F) -> F::Output {
    drop(future);
    todo!("crea un Waker que haga unpark de este hilo; sondea, y si da Pending, park()")
}
