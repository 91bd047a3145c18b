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
use tokio::task::{JoinError, JoinSet};
use tokio::time::{Instant, timeout_at};
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
    let mut en_curso = JoinSet::new();
    let mut informe = Informe::default();
    let cancelado = loop {
        tokio::select! {
            // `biased`: si ya cancelaron, no se acepta ni una conexión más.
            biased;
            _ = parar.cancelled() => break true,
            // Recoger las que acaban mientras se sirve, para que el JoinSet no
            // crezca sin límite (y antes que aceptar: una riada de conexiones
            // no puede dejar sin recoger las terminadas).
            Some(resultado) = en_curso.join_next() => apunta(&mut informe, resultado),
            conexion = conexiones.recv() => match conexion {
                Some(conexion) => {
                    en_curso.spawn(atiende(conexion));
                }
                None => break false,
            },
        }
    };
    // El plazo cuenta desde la cancelación, una sola vez para todo el grupo.
    let fin = if cancelado { Some(Instant::now() + plazo) } else { None };
    loop {
        let siguiente = match fin {
            Some(fin) => timeout_at(fin, en_curso.join_next()).await,
            None => Ok(en_curso.join_next().await),
        };
        match siguiente {
            Ok(Some(resultado)) => apunta(&mut informe, resultado),
            Ok(None) => return informe,
            Err(_plazo_vencido) => break,
        }
    }
    // Venció el plazo: abortar lo que queda y esperar a que la cancelación se
    // complete. Cada resultado dice lo que pasó: una conexión que estaba en
    // pleno sondeo en otro hilo cuando llegó el abort puede haber terminado.
    en_curso.abort_all();
    while let Some(resultado) = en_curso.join_next().await {
        apunta(&mut informe, resultado);
    }
    informe
}

/// Apunta en el informe cómo acabó una conexión.
fn apunta(informe: &mut Informe, resultado: Result<(), JoinError>) {
    match resultado {
        Ok(()) => informe.atendidas += 1,
        Err(error) if error.is_panic() => informe.fallidas += 1,
        Err(_cancelada) => informe.cortadas += 1,
    }
}
