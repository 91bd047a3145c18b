//! `cargo run -p soluciones-02`: las tres soluciones del capítulo 02 en marcha.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::mpsc;

use por_conexion::{eco, estado, grupo};

fn main() -> std::io::Result<()> {
    println!("1. eco: tres clientes por 127.0.0.1, un hilo del servidor para cada uno");
    let escucha = TcpListener::bind("127.0.0.1:0")?;
    let direccion = escucha.local_addr()?;
    let mut clientes: Vec<TcpStream> = (0..3).map(|_| TcpStream::connect(direccion)).collect::<Result<_, _>>()?;
    let hilos = eco::sirve(&escucha, 3)?;
    for (i, c) in clientes.iter_mut().enumerate().rev() {
        let texto = format!("hola desde el cliente {i}");
        c.write_all(texto.as_bytes())?;
        let mut eco = vec![0u8; texto.len()];
        c.read_exact(&mut eco)?;
        println!("   cliente {i} recibe: «{}»", String::from_utf8_lossy(&eco));
        c.shutdown(Shutdown::Write)?;
    }
    for (i, h) in hilos.into_iter().enumerate() {
        println!("   hilo de la conexión {i}: {:?} bytes", h.join().expect("sin pánicos"));
    }

    println!("2. estado: /proc/self/status antes y después de lanzar 100 hilos dormidos");
    match std::fs::read_to_string("/proc/self/status") {
        Ok(texto) => {
            let antes = estado::lee(&texto).expect("se puede leer");
            let (suelta_tx, suelta_rx) = mpsc::channel::<()>();
            let suelta_rx = std::sync::Arc::new(std::sync::Mutex::new(suelta_rx));
            let (listo_tx, listo_rx) = mpsc::channel();
            let dormidos: Vec<_> = (0..100)
                .map(|_| {
                    let suelta = std::sync::Arc::clone(&suelta_rx);
                    let listo = listo_tx.clone();
                    std::thread::spawn(move || {
                        listo.send(()).unwrap();
                        let _ = suelta.lock().map(|r| r.recv());
                    })
                })
                .collect();
            for _ in 0..100 {
                listo_rx.recv().unwrap();
            }
            let despues = estado::lee(&std::fs::read_to_string("/proc/self/status")?).expect("se puede leer");
            drop(suelta_tx);
            for h in dormidos {
                let _ = h.join();
            }
            println!("   antes: {antes:?}");
            println!("   después: {despues:?}");
            if let Some((v, r)) = estado::por_hilo(&antes, &despues) {
                println!("   por hilo: {} KiB de memoria virtual, {} KiB residentes", v / 1024, r / 1024);
            }
        }
        Err(_) => println!("   este sistema no tiene /proc: no hay nada que leer"),
    }

    println!("3. grupo: 2 trabajadores y sitio para 1 en la cola; llegan 5 trabajos a la vez");
    let (empieza_tx, empieza_rx) = mpsc::channel();
    let (suelta_tx, suelta_rx) = mpsc::channel::<()>();
    let suelta_rx = std::sync::Mutex::new(suelta_rx);
    let g = grupo::Grupo::nuevo(2, 1, move |n: u32| {
        empieza_tx.send(n).unwrap();
        let _ = suelta_rx.lock().map(|r| r.recv());
    });
    for n in 1..=5 {
        match g.ofrece(n) {
            Ok(()) => println!("   trabajo {n}: aceptado"),
            Err(n) => println!("   trabajo {n}: rechazado (todos ocupados y la cola llena)"),
        }
        if n <= 2 {
            let _ = empieza_rx.recv(); // espera a que un trabajador lo recoja
        }
    }
    drop(suelta_tx);
    println!("   atendidos al cerrar: {}", g.cierra());
    Ok(())
}
