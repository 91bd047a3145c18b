//! Una carga fija para el ejecutor con robo, para medir lo que cuesta la
//! *feature* `traza` compilada pero sin grabar. La lanza dos veces
//! `cargo run --release -p leccion-09 --bin coste-traza` (con y sin la
//! *feature*) e intercala las ejecuciones. Imprime `ms=<reloj>` y
//! `cpu_ms=<CPU de todos los hilos del proceso>` (de `/proc/self/task/*/schedstat`,
//! en Linux; sin `/proc`, 0).

use std::time::Instant;

use planificador::{Ejecutor, Robo, ceder};

fn main() {
    let robo = Robo::nuevo(2);
    let cpu_antes = cpu_ns();
    let inicio = Instant::now();
    let e = robo.clone();
    robo.bloquea_en(async move {
        // Muchas tareas vacías, lanzadas desde una tarea.
        let manijas: Vec<_> = (0..50_000).map(|i| e.lanza(async move { i })).collect();
        for m in manijas {
            m.await;
        }
        // Tareas que ceden el turno muchas veces.
        let manijas: Vec<_> = (0..500)
            .map(|_| {
                e.lanza(async {
                    for _ in 0..100 {
                        ceder().await;
                    }
                })
            })
            .collect();
        for m in manijas {
            m.await;
        }
    });
    let ms = inicio.elapsed().as_secs_f64() * 1000.0;
    let cpu_ms = cpu_ns().saturating_sub(cpu_antes) as f64 / 1e6;
    robo.apaga();
    println!("ms={ms:.3}");
    println!("cpu_ms={cpu_ms:.3}");
}

/// La CPU gastada por todos los hilos vivos del proceso, en ns.
fn cpu_ns() -> u64 {
    let Ok(hilos) = std::fs::read_dir("/proc/self/task") else { return 0 };
    hilos
        .flatten()
        .filter_map(|h| std::fs::read_to_string(h.path().join("schedstat")).ok())
        .filter_map(|t| t.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}
