//! `cargo run -p soluciones-05`: las tres soluciones del capítulo 05 en marcha,
//! cada una con un «ticker» que cuenta cuántas veces pudo avanzar otra tarea
//! mientras el cálculo estaba en marcha.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use cuando_async::{aparta, en_rayon, trocea};

/// Una tarea que suma uno cada milisegundo.
fn ticker() -> (Arc<AtomicU64>, tokio::task::JoinHandle<()>) {
    let ticks = Arc::new(AtomicU64::new(0));
    let contador = ticks.clone();
    let tarea = tokio::spawn(async move {
        let mut intervalo = tokio::time::interval(Duration::from_millis(1));
        loop {
            intervalo.tick().await;
            contador.fetch_add(1, Ordering::Relaxed);
        }
    });
    (ticks, tarea)
}

/// 100 ms de cálculo sin un solo `.await`.
fn calculo() -> u64 {
    let inicio = Instant::now();
    let mut x = 1u64;
    while inicio.elapsed() < Duration::from_millis(100) {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
    x
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    println!("Runtime de un solo hilo; el ticker intenta sumar uno cada milisegundo.");

    println!("0. sin apartar: 100 ms de cálculo dentro de la tarea");
    let (ticks, t) = ticker();
    tokio::task::yield_now().await;
    let antes = ticks.load(Ordering::Relaxed);
    calculo();
    println!("   el ticker avanzó {} veces durante el cálculo", ticks.load(Ordering::Relaxed) - antes);
    t.abort();

    println!("1. aparta: el mismo cálculo en spawn_blocking");
    let (ticks, t) = ticker();
    tokio::task::yield_now().await;
    let antes = ticks.load(Ordering::Relaxed);
    aparta::aparta(calculo).await;
    println!("   el ticker avanzó {} veces durante el cálculo", ticks.load(Ordering::Relaxed) - antes);
    t.abort();

    println!("2. en_rayon: el mismo cálculo en un pool de Rayon, de vuelta por un oneshot");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let (ticks, t) = ticker();
    tokio::task::yield_now().await;
    let antes = ticks.load(Ordering::Relaxed);
    en_rayon::en_rayon(&pool, calculo).await;
    println!("   el ticker avanzó {} veces durante el cálculo", ticks.load(Ordering::Relaxed) - antes);
    t.abort();

    println!("3. trocea: contar los primos menores que 2 000 000 cediendo cada {} números", trocea::TROZO);
    let (ticks, t) = ticker();
    tokio::task::yield_now().await;
    let antes = ticks.load(Ordering::Relaxed);
    let primos = trocea::cuenta_primos(2_000_000).await;
    println!("   {primos} primos; el ticker avanzó {} veces durante la cuenta", ticks.load(Ordering::Relaxed) - antes);
    t.abort();
}
