//! Respuesta incorrecta plausible: `spawn_local` no exige `Send`, así que
//! compila, pero solo funciona dentro de un `LocalSet`. Las pruebas deben
//! rechazarla.

use std::sync::{Arc, Mutex};

use tokio::task::JoinHandle;

pub fn anota_en_segundo_plano(registro: Arc<Mutex<Vec<String>>>, nuevas: Vec<String>) -> JoinHandle<usize> {
    tokio::task::spawn_local(async move {
        let mut lista = registro.lock().unwrap();
        for palabra in nuevas {
            lista.push(palabra);
            tokio::task::yield_now().await;
        }
        lista.len()
    })
}
