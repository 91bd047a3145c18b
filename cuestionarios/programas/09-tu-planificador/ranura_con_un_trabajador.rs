use tokio::runtime::Builder;

fn main() {
    let runtime = Builder::new_multi_thread().worker_threads(1).build().unwrap();
    runtime.block_on(async {
        let lanzadora = tokio::spawn(async {
            let a = tokio::spawn(async { println!("A") });
            let b = tokio::spawn(async { println!("B") });
            let c = tokio::spawn(async { println!("C") });
            a.await.unwrap();
            b.await.unwrap();
            c.await.unwrap();
        });
        lanzadora.await.unwrap();
    });
}
