use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::sleep;

#[tokio::main(flavor = "current_thread", start_paused = true)]
async fn main() {
    let (tx, mut rx) = mpsc::channel(1);
    tx.send(1).await.unwrap();
    tokio::select! {
        _ = tx.send(2) => println!("enviado el 2"),
        _ = sleep(Duration::from_millis(5)) => println!("latido"),
    }
    drop(tx);
    while let Some(n) = rx.recv().await {
        println!("recibido {n}");
    }
}
