use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::Semaphore;

#[tokio::main(flavor = "current_thread", start_paused = true)]
async fn main() {
    let permisos = Arc::new(Semaphore::new(1));
    let dentro = Arc::new(AtomicUsize::new(0));
    let maximo = Arc::new(AtomicUsize::new(0));
    let mut tareas = Vec::new();
    for _ in 0..3 {
        let (permisos, dentro, maximo) = (permisos.clone(), dentro.clone(), maximo.clone());
        tareas.push(tokio::spawn(async move {
            let _ = permisos.acquire().await.unwrap();
            let ahora = dentro.fetch_add(1, Ordering::SeqCst) + 1;
            maximo.fetch_max(ahora, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(10)).await;
            dentro.fetch_sub(1, Ordering::SeqCst);
        }));
    }
    for t in tareas {
        t.await.unwrap();
    }
    println!("a la vez, como mucho: {}", maximo.load(Ordering::SeqCst));
}
