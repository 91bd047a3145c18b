//! Respuesta incorrecta plausible: un `join` hecho a mano que echa un
//! vistazo a cada consulta y cede con `yield_now` entre vistazo y vistazo.
//! Da el resultado correcto, pero no espera dormido: la tarea se despierta
//! una y otra vez aunque ningún servicio haya respondido.

use std::pin::pin;
use std::task::Poll;

use std::time::Duration;

/// Lo que tarda el servicio de perfiles.
pub const TARDA_PERFIL: Duration = Duration::from_millis(30);
/// Lo que tarda el servicio de pedidos.
pub const TARDA_PEDIDOS: Duration = Duration::from_millis(50);

/// El perfil de un cliente.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Perfil {
    pub id: u32,
    pub nombre: String,
}

/// Simula la consulta al servicio de perfiles.
pub async fn carga_perfil(id: u32) -> Perfil {
    tokio::time::sleep(TARDA_PERFIL).await;
    Perfil { id, nombre: format!("cliente-{id}") }
}

/// Simula la consulta al servicio de pedidos.
pub async fn carga_pedidos(id: u32) -> Vec<u32> {
    tokio::time::sleep(TARDA_PEDIDOS).await;
    (1..=3).map(|n| id * 100 + n).collect()
}

pub async fn pagina(id: u32) -> (Perfil, Vec<u32>) {
    let mut perfil = pin!(carga_perfil(id));
    let mut pedidos = pin!(carga_pedidos(id));
    let (mut p, mut q) = (None, None);
    loop {
        // Un vistazo a cada consulta que falte, sin quedarse esperando.
        std::future::poll_fn(|cx| {
            if p.is_none()
                && let Poll::Ready(v) = perfil.as_mut().poll(cx)
            {
                p = Some(v);
            }
            if q.is_none()
                && let Poll::Ready(v) = pedidos.as_mut().poll(cx)
            {
                q = Some(v);
            }
            Poll::Ready(())
        })
        .await;
        if p.is_some() && q.is_some() {
            return (p.unwrap(), q.unwrap());
        }
        tokio::task::yield_now().await;
    }
}
