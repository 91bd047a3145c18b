//! Respuesta incorrecta plausible: suelta bien el candado antes de cada
//! `.await`, pero calcula lo que devuelve al principio (lo que había más lo
//! que va a añadir). Si otra tarea escribe en el registro mientras tanto,
//! la cuenta no es el tamaño del registro al terminar.

use std::sync::{Arc, Mutex};

use tokio::task::JoinHandle;

pub fn anota_en_segundo_plano(registro: Arc<Mutex<Vec<String>>>, nuevas: Vec<String>) -> JoinHandle<usize> {
    tokio::spawn(async move {
        let total = registro.lock().unwrap().len() + nuevas.len();
        for palabra in nuevas {
            {
                let mut lista = registro.lock().unwrap();
                lista.push(palabra);
            }
            tokio::task::yield_now().await;
        }
        total
    })
}
