//! Respuesta incorrecta plausible: atiende cada conexión dentro del propio
//! bucle, con `.await`, en vez de en su propia tarea. Las conexiones van una
//! detrás de otra y, mientras atiende una, nadie mira si hay que parar.

use std::future::Future;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio::time::{Instant, timeout_at};
use tokio_util::sync::CancellationToken;

/// Lo que pasó con las conexiones aceptadas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Informe {
    /// Conexiones que terminaron su trabajo.
    pub atendidas: usize,
    /// Conexiones abortadas al vencer el plazo.
    pub cortadas: usize,
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
            conexion = conexiones.recv() => match conexion {
                Some(conexion) => {
                    atiende(conexion).await;
                    informe.atendidas += 1;
                }
                None => break false,
            },
            // Recoger las que acaban, para que el JoinSet no crezca sin límite.
            Some(_) = en_curso.join_next() => informe.atendidas += 1,
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
            Ok(Some(_)) => informe.atendidas += 1,
            Ok(None) => return informe,
            Err(_plazo_vencido) => break,
        }
    }
    // Venció el plazo: abortar lo que queda y esperar a que la cancelación se complete.
    en_curso.abort_all();
    while let Some(resultado) = en_curso.join_next().await {
        match resultado {
            // Acabó justo antes de que llegara el abort: su trabajo está hecho.
            Ok(()) => informe.atendidas += 1,
            Err(_) => informe.cortadas += 1,
        }
    }
    informe
}
