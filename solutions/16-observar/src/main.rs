//! `cargo run -p soluciones-16`: las tres soluciones del capítulo 16 en marcha.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
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
        println!("   {} {}: {:>2} entradas, ocupado {:>5} ms", m.nombre, i + 1, m.sondeos, ms(m.ocupado));
    }

    println!("2. atascado: 2 trabajadores, uno bloqueado por una tarea y el otro saturado de trabajo");
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let (soltar, suelta) = mpsc::channel::<()>();
    let (empezo, ha_empezado) = mpsc::channel::<()>();
    rt.spawn(async move {
        empezo.send(()).unwrap();
        let _ = suelta.recv_timeout(Duration::from_secs(2));
    });
    ha_empezado.recv_timeout(Duration::from_secs(2)).expect("la tarea bloqueante empieza");
    // Cuatro tareas que no paran de trabajar: el trabajador libre nunca se aparca.
    let parar = Arc::new(AtomicBool::new(false));
    for _ in 0..4 {
        let parar = parar.clone();
        rt.spawn(async move {
            while !parar.load(Ordering::Relaxed) {
                std::hint::black_box((0..1_000u64).sum::<u64>());
                tokio::task::yield_now().await;
            }
        });
    }
    std::thread::sleep(Duration::from_millis(30));
    let inicio = Instant::now();
    let mut muestras = Vec::new();
    for _ in 0..6 {
        muestras.push(muestra(&rt.metrics(), inicio.elapsed()));
        std::thread::sleep(Duration::from_millis(20));
    }
    let (primera, ultima) = (&muestras[0], muestras.last().unwrap());
    for w in 0..ultima.aparca.len() {
        println!(
            "   trabajador {w}: contador {} -> {}, tiempo ocupado {} -> {} ms",
            primera.aparca[w],
            ultima.aparca[w],
            ms(primera.ocupado[w]),
            ms(ultima.ocupado[w])
        );
    }
    println!(
        "   atascados (100 ms despiertos y quietos del todo): {:?}",
        atascados(&muestras, Duration::from_millis(100))
    );
    parar.store(true, Ordering::Relaxed);
    drop(soltar);
    rt.shutdown_timeout(Duration::from_secs(1));

    println!("3. seguir: una petición lenta, con sus eventos y sus tramos (fmt)");
    let fmt = tracing_subscriber::fmt().with_target(false).without_time().finish();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    tracing::subscriber::with_default(fmt, || {
        rt.block_on(atiende(42, Duration::from_millis(30)));
    });
}

/// Milisegundos con un decimal, como los escribe el libro («2,3»).
fn ms(d: Duration) -> String {
    medidas::numero(d.as_secs_f64() * 1000.0, 1)
}
