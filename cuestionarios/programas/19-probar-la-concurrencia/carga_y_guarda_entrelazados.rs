use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread;

fn main() {
    let cuenta = Arc::new(AtomicU32::new(0));
    let hilos: Vec<_> = (0..2)
        .map(|_| {
            let cuenta = cuenta.clone();
            thread::spawn(move || {
                let visto = cuenta.load(Ordering::SeqCst);
                cuenta.store(visto + 1, Ordering::SeqCst);
            })
        })
        .collect();
    for h in hilos {
        h.join().unwrap();
    }
    println!("{}", cuenta.load(Ordering::SeqCst));
}
