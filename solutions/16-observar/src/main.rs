//! `cargo run -p soluciones-16`: las tres soluciones del capítulo 16 en marcha.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use observar::atascado::{atascados, muestra};
use observar::seguir::atiende;
use observar::sondeos::ContadorDeSondeos;
use tracing::Instrument;
use tracing_subscriber::layer::SubscriberExt;

fn main() {
    println!("1. sondeos: tres peticiones con su tramo en un runtime de un hilo");
    let contador = ContadorDeSondeos::new();
    let suscriptor = tracing_subscriber::registry().with(contador.clone());
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    tracing::subscriber::with_default(suscriptor, || {
        rt.block_on(async {
            let mut tareas = Vec::new();
            for (id, vueltas, calculo_ms) in [(1u64, 2, 1u64), (2, 8, 0), (3, 3, 4)] {
                let trabajo = async move {
                    for _ in 0..vueltas {
                        // Un cálculo que ocupa el hilo y una espera que no lo ocupa.
                        std::thread::sleep(Duration::from_millis(calculo_ms));
                        tokio::time::sleep(Duration::from_millis(5)).await;
                    }
                };
                tareas.push(tokio::spawn(trabajo.instrument(tracing::info_span!("peticion", id))));
            }
            for t in tareas {
                t.await.unwrap();
            }
        })
    });
    for (i, m) in contador.informe().iter().enumerate() {
        println!("   {} {}: {:>2} entradas, ocupado {:>5.1} ms", m.nombre, i + 1, m.sondeos, ms(m.ocupado));
    }

    println!("2. atascado: un runtime de 2 trabajadores con una tarea que bloquea el suyo");
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let (soltar, suelta) = mpsc::channel::<()>();
    rt.spawn(async move {
        let _ = suelta.recv_timeout(Duration::from_secs(2));
    });
    std::thread::sleep(Duration::from_millis(30));
    let inicio = Instant::now();
    let mut muestras = Vec::new();
    for _ in 0..6 {
        muestras.push(muestra(&rt.metrics(), inicio.elapsed()));
        std::thread::sleep(Duration::from_millis(20));
    }
    println!("   contadores de aparcar/despertar al final: {:?}", muestras.last().unwrap().aparca);
    println!("   atascados (100 ms quietos y despiertos): {:?}", atascados(&muestras, Duration::from_millis(100)));
    drop(soltar);
    rt.shutdown_timeout(Duration::from_secs(1));

    println!("3. seguir: una petición lenta, con sus eventos y sus tramos (fmt)");
    let fmt = tracing_subscriber::fmt().with_target(false).without_time().finish();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    tracing::subscriber::with_default(fmt, || {
        rt.block_on(atiende(42, Duration::from_millis(30)));
    });
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
