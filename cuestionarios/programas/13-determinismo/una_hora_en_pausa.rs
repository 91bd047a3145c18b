use std::time::Duration;

#[tokio::main(flavor = "current_thread", start_paused = true)]
async fn main() {
    let real = std::time::Instant::now();
    let de_tokio = tokio::time::Instant::now();
    tokio::time::sleep(Duration::from_secs(3600)).await;
    println!("según el reloj de Tokio: {} s", de_tokio.elapsed().as_secs());
    println!("¿pasó una hora de verdad? {}", real.elapsed() >= Duration::from_secs(3600));
}
