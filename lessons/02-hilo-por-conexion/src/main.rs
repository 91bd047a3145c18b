//! Mil hilos del sistema bloqueados en `read()`: cuánto cuesta crearlos y
//! cuánta memoria virtual, residente y de núcleo se lleva cada uno.
//!
//! ```text
//! cargo run -p leccion-02 --release                  # 1000 hilos
//! cargo run -p leccion-02 --release -- --hilos 10000 # hasta la mitad del límite de la máquina
//! cargo run -p leccion-02 --release -- --pila 65536  # pilas de 64 KiB (como RUST_MIN_STACK)
//! cargo run -p leccion-02 --release -- --arenas 1     # una arena de malloc (como MALLOC_ARENA_MAX)
//! cargo run -p leccion-02 -- --rapido                # cien, lo que usan las pruebas
//! ```

use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use leccion_02::{Foto, Limites, OpcionesHilos, TOPE_DE_LA_LECCION, kib, limita_arenas, mib};
use medidas::{entero, numero};

fn main() {
    let opciones: OpcionesHilos = opciones::de_la_linea_de_ordenes();
    let limites = Limites::de_esta_maquina();
    if let Err(mensaje) = limites.admite(opciones.hilos, TOPE_DE_LA_LECCION) {
        eprintln!("error: {mensaje}");
        std::process::exit(2);
    }
    if let Err(e) = demo(&opciones, &limites) {
        eprintln!("error: no se pudo crear la tubería donde esperan los hilos: {e}");
        std::process::exit(1);
    }
}

fn demo(opciones: &OpcionesHilos, limites: &Limites) -> std::io::Result<()> {
    let pedidos = opciones.hilos as usize;
    println!("Hilos pedidos: {}, cada uno bloqueado en read() sobre una tubería vacía", entero(pedidos as u64));
    println!("Límites de esta máquina: {}", limites.describe());
    println!("La lección crea como mucho {} hilos", entero(limites.permitidos(TOPE_DE_LA_LECCION)));
    match (opciones.pila, std::env::var("RUST_MIN_STACK")) {
        (Some(p), _) => println!("Pila de cada hilo: {} bytes (--pila, con thread::Builder::stack_size)", entero(p)),
        (None, Ok(v)) => println!("Pila de cada hilo: RUST_MIN_STACK={v} bytes"),
        (None, Err(_)) => println!("Pila de cada hilo: la de std por defecto (RUST_MIN_STACK no está definida)"),
    }
    if let Some(n) = opciones.arenas {
        if limita_arenas(n) {
            println!("Arenas de malloc: como mucho {n} (--arenas, como MALLOC_ARENA_MAX={n})");
        } else {
            println!("Arenas de malloc: este sistema no deja limitarlas; sigo sin tope");
        }
    }

    // ANCHOR: crear
    let (lector, escritor) = std::io::pipe()?;
    let lector = Arc::new(lector);
    let en_read = Arc::new(AtomicUsize::new(0));
    let mut hilos = Vec::with_capacity(pedidos); // reservado antes de medir

    let antes = Foto::ahora();
    let inicio = Instant::now();
    for i in 0..pedidos {
        let lector = Arc::clone(&lector);
        let en_read = Arc::clone(&en_read);
        let mut constructor = std::thread::Builder::new();
        if let Some(p) = opciones.pila {
            constructor = constructor.stack_size(p as usize);
        }
        let creado = constructor.spawn(move || {
            en_read.fetch_add(1, Ordering::SeqCst);
            let mut byte = [0u8; 1];
            // Bloqueado hasta que alguien escriba o se cierre la tubería.
            let _ = (&*lector).read(&mut byte);
        });
        match creado {
            Ok(hilo) => hilos.push(hilo),
            Err(e) => {
                println!(
                    "No se pudo crear el hilo número {}: {e}. Sigo con los {} creados.",
                    entero(i as u64 + 1),
                    entero(i as u64)
                );
                break;
            }
        }
    }
    let crear = inicio.elapsed();
    // ANCHOR_END: crear

    let creados = hilos.len();
    // Espera (con tope) a que todos hayan llegado a read().
    let limite = Instant::now() + Duration::from_secs(30);
    while en_read.load(Ordering::SeqCst) < creados && Instant::now() < limite {
        std::thread::sleep(Duration::from_millis(1));
    }
    let despues = Foto::ahora();

    // Cerrar el extremo de escritura despierta a todos: read() devuelve 0.
    let inicio = Instant::now();
    drop(escritor);
    for hilo in hilos {
        let _ = hilo.join();
    }
    let recoger = inicio.elapsed();

    println!();
    println!("Hilos creados:               {}", entero(creados as u64));
    if creados == 0 {
        return Ok(());
    }
    let n = creados as f64;
    println!(
        "Tiempo en crearlos:          {} ms = {} µs por hilo",
        numero(crear.as_secs_f64() * 1e3, 1),
        numero(crear.as_secs_f64() * 1e6 / n, 1)
    );
    match (antes, despues) {
        (Some(a), Some(d)) => {
            let delta = |x: u64, y: u64| y.saturating_sub(x) as f64;
            println!(
                "Hilos del proceso (/proc):   {} antes, {} con todos bloqueados",
                entero(a.hilos),
                entero(d.hilos)
            );
            let v = delta(a.virtual_, d.virtual_);
            println!(
                "Memoria virtual (VmSize):    +{} MiB = {} KiB por hilo",
                numero(mib(v), 1),
                numero(kib(v / n), 1)
            );
            let r = delta(a.residente, d.residente);
            println!(
                "Memoria residente (VmRSS):   +{} MiB = {} KiB por hilo",
                numero(mib(r), 1),
                numero(kib(r / n), 1)
            );
            match (a.pila_nucleo, d.pila_nucleo) {
                (Some(x), Some(y)) => {
                    let k = delta(x, y);
                    println!(
                        "Pilas del kernel:            +{} MiB = {} KiB por hilo (KernelStack de /proc/meminfo: todo el sistema)",
                        numero(mib(k), 1),
                        numero(kib(k / n), 1)
                    );
                }
                _ => println!("Pilas del kernel:            no disponible (falta KernelStack en /proc/meminfo)"),
            }
        }
        _ => println!("Memoria:                     no disponible (este sistema no tiene /proc)"),
    }
    println!("Tiempo en despertarlos y recogerlos: {} ms", numero(recoger.as_secs_f64() * 1e3, 1));
    Ok(())
}
