use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread;

fn suma_uno(cuenta: &AtomicU32) {
    let visto = cuenta.load(Ordering::SeqCst);
    cuenta.store(visto + 1, Ordering::SeqCst);
}

fn main() {
    let cuenta = Arc::new(AtomicU32::new(0));
    let c = cuenta.clone();
    let otro = thread::spawn(move || suma_uno(&c));
    suma_uno(&cuenta);
    otro.join().unwrap();
    println!("{}", cuenta.load(Ordering::SeqCst));
}
