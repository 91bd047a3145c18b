//! Ejercicio 3: concurrencia dentro de una sola tarea.
//!
//! Una página de cliente necesita dos datos que vienen de servicios
//! distintos: el perfil (tarda 30 ms) y los pedidos (tardan 50 ms).
//! `pagina` debe pedir los dos a la vez y tardar lo que tarda el más lento,
//! no la suma. Y sin `tokio::spawn`: los dos *futures* avanzan dentro de la
//! tarea que llama a `pagina`.

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

/// Devuelve el perfil y los pedidos del cliente `id`, pidiéndolos a la vez.
pub async fn pagina(id: u32) -> (Perfil, Vec<u32>) {
    let _ = id;
    todo!("usa tokio::join! con carga_perfil y carga_pedidos")
}
