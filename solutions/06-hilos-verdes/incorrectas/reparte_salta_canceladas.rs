//! Respuesta incorrecta plausible: una tarea cancelada «no ha fallado»,
//! así que solo devuelve los pánicos y se salta las canceladas. Pero una
//! tarea cancelada tampoco dio su resultado: la suma sale incompleta.

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
    for tarea in tareas {
        match tarea.await {
            Ok(valor) => suma += valor,
            Err(error) if error.is_panic() => return Err(error),
            Err(_cancelada) => {}
        }
    }
    Ok(suma)
}
