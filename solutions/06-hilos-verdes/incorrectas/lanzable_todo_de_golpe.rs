//! Respuesta incorrecta plausible: compila porque la guarda muere antes del
//! primer `.await`, pero añade todas las palabras de golpe y cede después.
//! Las demás tareas no ven el avance palabra a palabra, y dos tareas sobre
//! el mismo registro no se intercalan.

use std::sync::{Arc, Mutex};

use tokio::task::JoinHandle;

pub fn anota_en_segundo_plano(registro: Arc<Mutex<Vec<String>>>, nuevas: Vec<String>) -> JoinHandle<usize> {
    tokio::spawn(async move {
        let cuantas = nuevas.len();
        registro.lock().unwrap().extend(nuevas);
        for _ in 0..cuantas {
            tokio::task::yield_now().await;
        }
        registro.lock().unwrap().len()
    })
}
