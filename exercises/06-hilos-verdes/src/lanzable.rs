//! Ejercicio 1: haz que compile.
//!
//! `anota_en_segundo_plano` lanza una tarea que añade palabras a un registro
//! compartido y cede el control después de cada una, para no acaparar su
//! hilo trabajador. Tal como está, no compila: lee el error entero. El
//! compilador te dice qué valor no es `Send` y en qué `.await` se queda vivo.
//!
//! Arréglalo sin cambiar la firma ni quitar el `.await`: el registro debe
//! poder leerse desde otras tareas mientras esta trabaja.

use std::sync::{Arc, Mutex};

use tokio::task::JoinHandle;

/// Añade `nuevas` al final de `registro`, en orden, cediendo el control tras
/// cada palabra. La tarea devuelve cuántas palabras tiene el registro al
/// terminar.
pub fn anota_en_segundo_plano(registro: Arc<Mutex<Vec<String>>>, nuevas: Vec<String>) -> JoinHandle<usize> {
    tokio::spawn(async move {
        let mut lista = registro.lock().unwrap();
        for palabra in nuevas {
            lista.push(palabra);
            tokio::task::yield_now().await;
        }
        lista.len()
    })
}
