//! Ejercicio 2 (solución): una tarea por número, un `JoinHandle` por tarea.

use std::time::Duration;

use tokio::task::{JoinError, JoinHandle};

/// Lo que espera cada tarea antes de responder.
pub const ESPERA: Duration = Duration::from_millis(10);

/// Lanza `n` tareas; la tarea `i` duerme [`ESPERA`] y devuelve `i * i`.
pub fn lanza(n: u32) -> Vec<JoinHandle<u64>> {
    (0..n)
        .map(|i| {
            tokio::spawn(async move {
                tokio::time::sleep(ESPERA).await;
                // Pasa a u64 antes de multiplicar: 70_000² no cabe en u32.
                u64::from(i) * u64::from(i)
            })
        })
        .collect()
}

/// Espera cada `JoinHandle` y suma los resultados.
pub async fn recoge(tareas: Vec<JoinHandle<u64>>) -> Result<u64, JoinError> {
    let mut suma = 0;
    for tarea in tareas {
        suma += tarea.await?;
    }
    Ok(suma)
}
