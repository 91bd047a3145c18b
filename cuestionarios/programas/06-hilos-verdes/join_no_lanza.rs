use tokio::runtime::Handle;

fn vivas() -> usize {
    Handle::current().metrics().num_alive_tasks()
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let (a, b) = tokio::join!(async { vivas() }, async { vivas() });
    println!("con join!: {a} y {b}");
    let x = tokio::spawn(async { vivas() });
    let y = tokio::spawn(async { vivas() });
    println!("con spawn: {} y {}", x.await.unwrap(), y.await.unwrap());
}
