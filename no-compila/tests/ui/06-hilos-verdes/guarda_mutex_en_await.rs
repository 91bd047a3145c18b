// La guarda de `std::sync::Mutex` no es `Send`: no puede cruzar un `.await`
// dentro de una tarea lanzada con `tokio::spawn`.
use std::sync::{Arc, Mutex};

#[tokio::main]
async fn main() {
    let cuenta = Arc::new(Mutex::new(0));
    let tarea = tokio::spawn(async move {
        let mut guarda = cuenta.lock().unwrap();
        *guarda += 1;
        tokio::task::yield_now().await;
        *guarda += 1;
    });
    tarea.await.unwrap();
}
