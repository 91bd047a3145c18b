//! `cargo run -p soluciones-10`: los tres puentes entre Tokio y Rayon del
//! capítulo 10, en marcha.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use dos_pools::puente::a_rayon;
use dos_pools::salta::a_rayon_si_esperan;
use dos_pools::tope::PuenteAcotado;

/// Unos milisegundos de CPU, sin ningún `.await`.
fn calcula(ms: u64) -> u64 {
    let inicio = Instant::now();
    let mut x = 1u64;
    while inicio.elapsed() < Duration::from_millis(ms) {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
    x
}

#[tokio::main]
async fn main() {
    let pool = Arc::new(rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("pool de Rayon"));

    println!("1. a_rayon: un trabajo que va bien y otro que entra en pánico");
    println!("   bien: {:?}", a_rayon(&pool, || (1..=20u64).sum::<u64>()).await);
    // Sin mensaje del gancho de pánico: lo que importa es lo que vuelve.
    let gancho = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let fallo = a_rayon(&pool, || -> u64 { panic!("división entre cero en la fila 17") }).await;
    std::panic::set_hook(gancho);
    match fallo {
        Ok(v) => println!("   pánico: inesperadamente, Ok({v})"),
        Err(e) => println!("   pánico: Err({e})"),
    }
    println!("   y el pool sigue vivo: {:?}", a_rayon(&pool, || 2 + 2).await);

    println!("2. PuenteAcotado: 12 trabajos de 20 ms lanzados a la vez a un pool de 4 hilos, tope de 3 en vuelo");
    let pool4 = Arc::new(rayon::ThreadPoolBuilder::new().num_threads(4).build().expect("pool de Rayon"));
    let puente = Arc::new(PuenteAcotado::nuevo(pool4, 3));
    let (en_vuelo, max) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let mut tareas = Vec::new();
    for i in 0..12u64 {
        let (puente, en_vuelo, max) = (puente.clone(), en_vuelo.clone(), max.clone());
        tareas.push(tokio::spawn(async move {
            puente
                .ejecuta(move || {
                    let ahora = en_vuelo.fetch_add(1, Ordering::SeqCst) + 1;
                    max.fetch_max(ahora, Ordering::SeqCst);
                    calcula(20);
                    en_vuelo.fetch_sub(1, Ordering::SeqCst);
                    i
                })
                .await
        }));
    }
    let mut suma = 0;
    for tarea in tareas {
        suma += tarea.await.expect("la tarea no falla");
    }
    println!(
        "   suma de resultados {suma}; como mucho {} trabajos calculando a la vez, con 4 hilos libres",
        max.load(Ordering::SeqCst)
    );

    println!("3. a_rayon_si_esperan: 6 trabajos de 50 ms en 2 hilos; quien espera se rinde a los 70 ms");
    let hechos = Arc::new(AtomicUsize::new(0));
    let mut tareas = Vec::new();
    for _ in 0..6 {
        let (pool, hechos) = (pool.clone(), hechos.clone());
        tareas.push(tokio::spawn(async move {
            let trabajo = a_rayon_si_esperan(&pool, move || {
                calcula(50);
                hechos.fetch_add(1, Ordering::SeqCst);
            });
            tokio::time::timeout(Duration::from_millis(70), trabajo).await.is_ok()
        }));
    }
    let mut a_tiempo = 0;
    for tarea in tareas {
        a_tiempo += usize::from(tarea.await.expect("la tarea no falla"));
    }
    // Los que ya habían empezado no se interrumpen: dales tiempo a terminar.
    tokio::time::sleep(Duration::from_millis(150)).await;
    println!(
        "   {a_tiempo} respuestas a tiempo; Rayon calculó {} de 6 trabajos. Los que empezaron antes \
         del plazo terminaron para nadie; los que aún hacían cola se saltaron",
        hechos.load(Ordering::SeqCst)
    );
}
