//! Respuesta incorrecta plausible: dos `.await` seguidos. Da el resultado
//! correcto, pero tarda la suma de las dos esperas.

use std::time::Duration;

pub const TARDA_PERFIL: Duration = Duration::from_millis(30);
pub const TARDA_PEDIDOS: Duration = Duration::from_millis(50);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Perfil {
    pub id: u32,
    pub nombre: String,
}

pub async fn carga_perfil(id: u32) -> Perfil {
    tokio::time::sleep(TARDA_PERFIL).await;
    Perfil { id, nombre: format!("cliente-{id}") }
}

pub async fn carga_pedidos(id: u32) -> Vec<u32> {
    tokio::time::sleep(TARDA_PEDIDOS).await;
    (1..=3).map(|n| id * 100 + n).collect()
}

pub async fn pagina(id: u32) -> (Perfil, Vec<u32>) {
    let perfil = carga_perfil(id).await;
    let pedidos = carga_pedidos(id).await;
    (perfil, pedidos)
}
