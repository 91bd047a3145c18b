use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    for i in 0..300 {
        tx.send(i).unwrap();
    }
    drop(tx);
    let leidos = Arc::new(AtomicUsize::new(0));
    let cuenta = leidos.clone();
    let lectora = tokio::spawn(async move {
        while rx.recv().await.is_some() {
            cuenta.fetch_add(1, Ordering::Relaxed);
        }
    });
    let cuenta = leidos.clone();
    let otra = tokio::spawn(async move { cuenta.load(Ordering::Relaxed) });
    println!("la otra tarea vio {}", otra.await.unwrap());
    lectora.await.unwrap();
    println!("al final, {}", leidos.load(Ordering::Relaxed));
}
