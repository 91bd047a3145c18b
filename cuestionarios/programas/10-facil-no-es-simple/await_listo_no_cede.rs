async fn lenta(x: u64) -> u64 {
    (0..2_000_000u64).fold(x, |a, b| a.rotate_left(5) ^ b)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let tic = tokio::spawn(async { println!("tic") });
    let a = lenta(1).await;
    let b = lenta(2).await;
    println!("las dos lentas: {}", a != b);
    tic.await.unwrap();
}
