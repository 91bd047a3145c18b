use std::sync::{Arc, Mutex};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let registro = Arc::new(Mutex::new(Vec::new()));
    let r = registro.clone();
    let tarea = tokio::spawn(async move {
        let mut guarda = r.lock().unwrap();
        tokio::task::yield_now().await;
        guarda.push("hola");
    });
    tarea.await.unwrap();
    println!("{:?}", registro.lock().unwrap());
}
