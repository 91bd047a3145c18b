use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let listo = Arc::new(AtomicBool::new(false));
    let aviso = listo.clone();
    tokio::spawn(async move {
        aviso.store(true, Ordering::SeqCst);
    });
    while !listo.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(10));
    }
    println!("listo");
}
