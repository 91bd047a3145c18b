use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Waker};

fn main() {
    let mut bloque = async {
        let numeros = [1, 2, 3];
        let primero = &numeros[0]; // un préstamo de otra variable del mismo estado
        std::future::ready(()).await;
        *primero
    };
    let mut cx = Context::from_waker(Waker::noop());
    // `Pin::new` solo vale para tipos `Unpin`; un bloque async no lo es.
    let _ = Pin::new(&mut bloque).poll(&mut cx);
}
