//! Ejercicio 1 (solución): la guarda del `Mutex` vive solo dentro del bloque,
//! así que no cruza ningún `.await` y el *future* de la tarea es `Send`.

use std::sync::{Arc, Mutex};

use tokio::task::JoinHandle;

/// Añade `nuevas` al final de `registro`, en orden, cediendo el control tras
/// cada palabra. La tarea devuelve cuántas palabras tiene el registro al
/// terminar.
pub fn anota_en_segundo_plano(registro: Arc<Mutex<Vec<String>>>, nuevas: Vec<String>) -> JoinHandle<usize> {
    tokio::spawn(async move {
        for palabra in nuevas {
            {
                let mut lista = registro.lock().unwrap();
                lista.push(palabra);
            } // aquí se suelta el candado, antes de ceder el control
            tokio::task::yield_now().await;
        }
        registro.lock().unwrap().len()
    })
}
