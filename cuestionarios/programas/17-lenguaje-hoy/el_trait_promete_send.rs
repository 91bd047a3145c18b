use std::future::Future;
use tokio::task::JoinHandle;

trait Fuente {
    fn leer(&self) -> impl Future<Output = u32> + Send;
}

struct Fija;

impl Fuente for Fija {
    async fn leer(&self) -> u32 {
        7
    }
}

fn lanza<F: Fuente + Send + Sync + 'static>(fuente: F) -> JoinHandle<u32> {
    tokio::spawn(async move { fuente.leer().await })
}

#[tokio::main]
async fn main() {
    println!("{}", lanza(Fija).await.unwrap());
}
