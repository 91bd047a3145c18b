use std::time::Duration;
use tokio::task::JoinSet;
use tokio::time::sleep;

#[tokio::main(flavor = "current_thread", start_paused = true)]
async fn main() {
    let mut grupo = JoinSet::new();
    for n in 1..=2 {
        grupo.spawn(async move {
            sleep(Duration::from_millis(10)).await;
            println!("tarea {n} terminada");
        });
    }
    drop(grupo);
    sleep(Duration::from_millis(50)).await;
    println!("fin de main");
}
