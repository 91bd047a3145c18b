use std::time::Duration;
use tokio::time::sleep;

#[tokio::main(flavor = "current_thread", start_paused = true)]
async fn main() {
    let tarea = tokio::spawn(async {
        sleep(Duration::from_millis(10)).await;
        println!("la tarea terminó su trabajo");
    });
    drop(tarea);
    sleep(Duration::from_millis(50)).await;
    println!("fin de main");
}
