use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::thread;

fn main() {
    let cola = Arc::new(Mutex::new(VecDeque::from([0, 1, 2])));
    let hechas = Arc::new(Mutex::new(Vec::new()));
    let trabajadores: Vec<_> = (0..2)
        .map(|_| {
            let (cola, hechas) = (cola.clone(), hechas.clone());
            thread::spawn(move || {
                loop {
                    let Some(tarea) = cola.lock().unwrap().pop_front() else {
                        break;
                    };
                    hechas.lock().unwrap().push(tarea);
                }
            })
        })
        .collect();
    for t in trabajadores {
        t.join().unwrap();
    }
    println!("{:?}", hechas.lock().unwrap());
}
