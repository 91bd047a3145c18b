use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

fn main() {
    let mut cx = Context::from_waker(Waker::noop());
    let mut futuro = Box::new(async { 1 });
    let listo = Pin::new(&mut futuro).poll(&mut cx);
    assert_eq!(listo, Poll::Ready(1));
}
