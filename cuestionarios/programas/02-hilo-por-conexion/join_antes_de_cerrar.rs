use std::sync::mpsc;
use std::thread;

fn main() {
    let (tx, rx) = mpsc::channel::<String>();
    let trabajador = thread::spawn(move || {
        for mensaje in rx {
            println!("eco: {mensaje}");
        }
    });
    tx.send("hola".to_string()).unwrap();
    trabajador.join().unwrap();
    drop(tx);
    println!("fin");
}
