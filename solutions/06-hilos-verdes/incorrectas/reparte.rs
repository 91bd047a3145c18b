//! Respuesta incorrecta plausible: multiplica en `u32` y convierte después.
//! Con `n` pequeño da bien; con `i >= 65_536` el producto desborda (en debug, pánico).

use std::time::Duration;

use tokio::task::{JoinError, JoinHandle};

pub const ESPERA: Duration = Duration::from_millis(10);

pub fn lanza(n: u32) -> Vec<JoinHandle<u64>> {
    (0..n)
        .map(|i| {
            tokio::spawn(async move {
                tokio::time::sleep(ESPERA).await;
                (i * i) as u64
            })
        })
        .collect()
}

pub async fn recoge(tareas: Vec<JoinHandle<u64>>) -> Result<u64, JoinError> {
    let mut suma = 0;
    for tarea in tareas {
        suma += tarea.await?;
    }
    Ok(suma)
}
