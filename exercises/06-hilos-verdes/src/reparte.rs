//! Ejercicio 2: reparte el trabajo en tareas.
//!
//! `lanza` crea una tarea por número `0..n`. Cada tarea espera 10 ms (simula
//! una consulta a otro servicio) y devuelve el cuadrado de su número como
//! `u64`. `lanza` no espera a nadie: devuelve los `JoinHandle` en orden.
//!
//! `recoge` espera todos los `JoinHandle` y suma sus resultados. Si alguna
//! tarea falló (entró en pánico o fue cancelada), devuelve el `JoinError` de
//! la primera de la lista que falló, aunque otra fallara antes en el tiempo.

use std::time::Duration;

use tokio::task::{JoinError, JoinHandle};

/// Lo que espera cada tarea antes de responder.
pub const ESPERA: Duration = Duration::from_millis(10);

/// Lanza `n` tareas; la tarea `i` duerme [`ESPERA`] y devuelve `i * i`.
pub fn lanza(n: u32) -> Vec<JoinHandle<u64>> {
    let _ = n;
    todo!("lanza una tarea por número con tokio::spawn")
}

/// Espera cada `JoinHandle` y suma los resultados.
pub async fn recoge(tareas: Vec<JoinHandle<u64>>) -> Result<u64, JoinError> {
    let _ = tareas;
    todo!("haz .await sobre cada JoinHandle")
}
