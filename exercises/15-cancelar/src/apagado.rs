//! Ejercicio 2: apagar un servidor en orden, sin perder nada.
//!
//! `sirve` recibe las conexiones por un canal (en un servidor de verdad
//! vendrían de `TcpListener::accept`) y atiende cada una en su propia tarea
//! con `atiende(conexion)`. Cuando alguien cancela `parar`:
//!
//! 1. deja de aceptar: no saca ninguna conexión más del canal;
//! 2. deja que las conexiones en curso terminen, como mucho durante
//!    `plazo`, contado desde la cancelación;
//! 3. si vence el plazo, aborta las que queden y espera a que su
//!    cancelación se complete;
//! 4. devuelve un [`Informe`]: cuántas terminaron, cuántas cortó y cuántas
//!    fallaron.
//!
//! Si el canal se cierra sin que nadie cancele `parar`, ya no llegarán más
//! conexiones: espera a que terminen todas las que están en curso, sin
//! plazo, y devuelve el informe.
//!
//! Mientras sirve, recoge las conexiones que van terminando: un servidor que
//! atiende millones de conexiones no puede guardarlas todas hasta el final.
//! Si una conexión entra en pánico, el pánico no sale de `sirve` ni tumba el
//! servidor: se cuenta en `fallidas` (no es una atendida) y el servidor
//! sigue aceptando. Y cuenta lo que de verdad pasó: una conexión que termina
//! justo cuando la ibas a cortar (en un *runtime* de varios hilos puede estar
//! en pleno sondeo en otro hilo cuando llega el `abort`) está atendida.

use std::future::Future;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// Lo que pasó con las conexiones aceptadas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Informe {
    /// Conexiones que terminaron su trabajo.
    pub atendidas: usize,
    /// Conexiones abortadas al vencer el plazo.
    pub cortadas: usize,
    /// Conexiones cuya tarea entró en pánico.
    pub fallidas: usize,
}

/// Atiende conexiones hasta que cancelan `parar` (o se cierra el canal) y
/// apaga en orden.
pub async fn sirve<C, F, Fut>(
    mut conexiones: mpsc::Receiver<C>,
    atiende: F,
    parar: CancellationToken,
    plazo: Duration,
) -> Informe
where
    F: Fn(C) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let _ = (&mut conexiones, atiende, parar, plazo);
    todo!("acepta con tokio::select! hasta que cancelen `parar`; luego deja terminar, con plazo, y corta el resto")
}
