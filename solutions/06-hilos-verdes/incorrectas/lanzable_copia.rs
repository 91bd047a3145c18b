//! Respuesta incorrecta plausible: para no tener el candado durante los
//! `.await`, trabaja sobre una copia del registro y la escribe entera al
//! final. Compila, pero nadie ve el avance mientras tanto, y si otra tarea
//! escribe a la vez, una copia pisa a la otra y se pierden palabras.

use std::sync::{Arc, Mutex};

use tokio::task::JoinHandle;

pub fn anota_en_segundo_plano(registro: Arc<Mutex<Vec<String>>>, nuevas: Vec<String>) -> JoinHandle<usize> {
    tokio::spawn(async move {
        let mut copia = registro.lock().unwrap().clone();
        for palabra in nuevas {
            copia.push(palabra);
            tokio::task::yield_now().await;
        }
        let total = copia.len();
        *registro.lock().unwrap() = copia;
        total
    })
}
