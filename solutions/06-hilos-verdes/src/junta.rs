//! Ejercicio 3 (solución): `tokio::join!` sondea los dos *futures* dentro de
//! la misma tarea; el tiempo total es el del más lento.

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
    tokio::join!(carga_perfil(id), carga_pedidos(id))
}
