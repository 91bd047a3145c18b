//! Respuesta incorrecta plausible: «a la vez» con dos tareas. Tarda lo
//! que la más lenta, sí, pero crea dos tareas nuevas para algo que
//! `tokio::join!` hace dentro de la tarea que llama.

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
    let perfil = tokio::spawn(carga_perfil(id));
    let pedidos = tokio::spawn(carga_pedidos(id));
    (perfil.await.unwrap(), pedidos.await.unwrap())
}
