//! Respuesta incorrecta plausible: espera todas las tareas, suma las que
//! salen bien y se guarda el error que ve. Si falla una sola, da igual; si
//! fallan varias, devuelve el de la última de la lista, no el de la primera.

use std::time::Duration;

use tokio::task::{JoinError, JoinHandle};

pub const ESPERA: Duration = Duration::from_millis(10);

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

pub async fn recoge(tareas: Vec<JoinHandle<u64>>) -> Result<u64, JoinError> {
    let mut suma = 0;
    let mut fallo = None;
    for tarea in tareas {
        match tarea.await {
            Ok(valor) => suma += valor,
            Err(error) => fallo = Some(error),
        }
    }
    match fallo {
        Some(error) => Err(error),
        None => Ok(suma),
    }
}
