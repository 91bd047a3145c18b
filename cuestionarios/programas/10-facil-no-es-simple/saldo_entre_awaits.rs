use std::cell::Cell;

async fn suma_uno(saldo: &Cell<u32>) {
    let visto = saldo.get();
    tokio::task::yield_now().await;
    saldo.set(visto + 1);
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let saldo = Cell::new(0);
    tokio::join!(suma_uno(&saldo), suma_uno(&saldo));
    println!("saldo: {}", saldo.get());
}
