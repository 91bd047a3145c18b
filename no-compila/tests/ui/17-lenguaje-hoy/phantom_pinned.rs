// Un tipo con `PhantomPinned` no es `Unpin`: `Pin::new` (que solo vale para
// tipos `Unpin`) no lo acepta. Para anclarlo, `pin!` o `Box::pin`.
use std::marker::PhantomPinned;
use std::pin::Pin;

struct Anclado {
    valor: u32,
    _quieto: PhantomPinned,
}

fn main() {
    let mut a = Anclado { valor: 1, _quieto: PhantomPinned };
    let anclado: Pin<&mut Anclado> = Pin::new(&mut a);
    println!("{}", anclado.valor);
}
