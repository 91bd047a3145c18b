use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Waker};

async fn primero_de_tres() -> i32 {
    let numeros = [1, 2, 3];
    let primero = &numeros[0]; // un préstamo de otra variable del mismo estado
    std::future::ready(()).await;
    *primero
}

fn main() {
    let mut maquina = primero_de_tres();
    let mut cx = Context::from_waker(Waker::noop());
    // `Pin::new` solo vale para tipos `Unpin`; el future de una `async fn` no lo es.
    let _ = Pin::new(&mut maquina).poll(&mut cx);
}
