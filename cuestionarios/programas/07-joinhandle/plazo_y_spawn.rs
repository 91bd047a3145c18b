use std::time::Duration;
use tokio::time::{sleep, timeout};

#[tokio::main(flavor = "current_thread", start_paused = true)]
async fn main() {
    let trabajo = tokio::spawn(async {
        sleep(Duration::from_millis(50)).await;
        println!("el trabajo terminó");
    });
    let resultado = timeout(Duration::from_millis(10), trabajo).await;
    println!("¿a tiempo? {}", resultado.is_ok());
    sleep(Duration::from_millis(100)).await;
    println!("fin");
}
