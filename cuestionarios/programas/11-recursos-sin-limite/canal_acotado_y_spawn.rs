use tokio::runtime::Handle;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let (tx, rx) = tokio::sync::mpsc::channel::<Vec<u8>>(2);
    for _ in 0..10 {
        let tx = tx.clone();
        tokio::spawn(async move {
            let cuerpo = vec![0u8; 16 * 1024];
            tx.send(cuerpo).await.unwrap();
        });
    }
    tokio::task::yield_now().await;
    let esperando = Handle::current().metrics().num_alive_tasks();
    println!("en el canal: {}; tareas esperando sitio: {esperando}", rx.len());
}
