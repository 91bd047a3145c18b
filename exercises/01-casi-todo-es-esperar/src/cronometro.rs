//! Ejercicio 3: el cronómetro de un *future*.
//!
//! Un *runtime* no ejecuta un *future* de un tirón: llama a su método `poll`
//! (lo sondea) una vez, y luego otra cada vez que el *future* puede avanzar.
//! Cada sondeo hace un trozo de trabajo y devuelve `Poll::Ready(valor)` si
//! terminó o `Poll::Pending` si ahora le toca esperar. El capítulo 04 cuenta
//! cómo funciona por dentro; para este ejercicio basta con eso.
//!
//! `mide` envuelve un *future* y, además de su resultado, devuelve:
//!
//! - `ocupado`: la suma de lo que duraron los sondeos (tiempo trabajando);
//! - `esperando`: la suma de los huecos entre el final de un sondeo y el
//!   principio del siguiente (tiempo parado, sin hilo);
//! - `sondeos`: cuántas veces se llamó a `poll`.
//!
//! Mide con `tokio::time::Instant`, no con `std::time::Instant`: con el reloj
//! en pausa de las pruebas, el tiempo solo avanza cuando Tokio lo decide y
//! las cuentas salen exactas.
//!
//! Un esqueleto posible:
//!
//! ```text
//! let mut fut = std::pin::pin!(fut);         // poll necesita un Pin<&mut F>
//! let salida = std::future::poll_fn(|cx| {
//!     // ... antes del sondeo ...
//!     let r = fut.as_mut().poll(cx);
//!     // ... después del sondeo ...
//!     r
//! })
//! .await;
//! ```

use std::future::Future;
use std::time::Duration;

/// Lo que mide `mide`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Medida {
    pub ocupado: Duration,
    pub esperando: Duration,
    pub sondeos: u32,
}

/// Ejecuta `fut` y devuelve su resultado con la medida de sus sondeos.
pub async fn mide<F: Future>(fut: F) -> (F::Output, Medida) {
    drop(fut);
    todo!("envuelve el future con std::future::poll_fn y cronometra cada poll")
}
