#[tokio::main(flavor = "current_thread")]
async fn main() {
    let a = tokio::spawn(async { println!("A") });
    let b = tokio::spawn(async { println!("B") });
    println!("main");
    a.await.unwrap();
    b.await.unwrap();
}
