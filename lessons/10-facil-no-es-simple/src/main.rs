//! Una tubería de tres etapas repartida entre dos pools: E/S en Tokio,
//! cálculo en Rayon y E/S otra vez en Tokio. Imprime cuántos trabajos hay en
//! cada sitio a lo largo del tiempo y la latencia de extremo a extremo.
//!
//! ```text
//! cargo run -p leccion-10 --release
//! cargo run -p leccion-10 --release -- --hilos-rayon 1
//! cargo run -p leccion-10 -- --rapido         # lo que usan las pruebas
//! ```

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use leccion_10::{Fase, Opciones, Parametros, calcula, calibra};
use medidas::{entero, numero, percentil};

/// Lo que comparten los trabajos y el medidor.
struct Tuberia {
    p: Parametros,
    /// Vueltas de `calcula` que suman `p.cpu` en un núcleo libre.
    vueltas: u64,
    pool: rayon::ThreadPool,
    inicio: Instant,
    /// En la primera etapa: esperando su E/S de entrada (Tokio).
    en_entrada: AtomicUsize,
    /// Mandados a Rayon y todavía sin empezar: en la cola de Rayon.
    en_cola_rayon: AtomicUsize,
    /// Calculando en un hilo de Rayon.
    calculando: AtomicUsize,
    /// En la última etapa: esperando su E/S de salida (Tokio).
    en_salida: AtomicUsize,
    terminados: AtomicUsize,
    /// Tiempo de CPU gastado en Rayon, en nanosegundos.
    rayon_ns: AtomicU64,
    /// (milisegundo de llegada, latencia en µs) de cada trabajo terminado.
    latencias: Mutex<Vec<(u64, u32)>>,
}

/// Un trabajo entero, de la llegada a la salida.
async fn trabajo(llegada_ms: u64, t: Arc<Tuberia>) {
    // Etapa 1, en Tokio: esperar la E/S de entrada no ocupa ningún hilo.
    t.en_entrada.fetch_add(1, Ordering::Relaxed);
    tokio::time::sleep(t.p.entrada).await;
    t.en_entrada.fetch_sub(1, Ordering::Relaxed);

    // ANCHOR: a_rayon
    // Etapa 2, en Rayon: un mensaje de ida (el cierre) y uno de vuelta (el
    // oneshot). Mientras tanto, esta tarea espera sin ocupar su hilo.
    t.en_cola_rayon.fetch_add(1, Ordering::Relaxed);
    let (tx, rx) = oneshot::channel();
    let en_rayon = t.clone();
    t.pool.spawn(move || {
        en_rayon.en_cola_rayon.fetch_sub(1, Ordering::Relaxed);
        en_rayon.calculando.fetch_add(1, Ordering::Relaxed);
        let empieza = Instant::now();
        let resultado = calcula(en_rayon.vueltas);
        en_rayon.rayon_ns.fetch_add(empieza.elapsed().as_nanos() as u64, Ordering::Relaxed);
        en_rayon.calculando.fetch_sub(1, Ordering::Relaxed);
        let _ = tx.send(resultado);
    });
    let resultado = rx.await.expect("Rayon respondió");
    // ANCHOR_END: a_rayon

    // Etapa 3, otra vez en Tokio.
    t.en_salida.fetch_add(1, Ordering::Relaxed);
    tokio::time::sleep(t.p.salida).await;
    std::hint::black_box(resultado);
    t.en_salida.fetch_sub(1, Ordering::Relaxed);

    let latencia = t.inicio.elapsed().saturating_sub(Duration::from_millis(llegada_ms));
    t.latencias.lock().unwrap().push((llegada_ms, latencia.as_micros().min(u128::from(u32::MAX)) as u32));
    t.terminados.fetch_add(1, Ordering::Relaxed);
}

/// Lanza cada trabajo cuando le toca según el horario.
async fn genera(t: Arc<Tuberia>) {
    let mut reloj = tokio::time::interval(Duration::from_millis(1));
    reloj.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let total = t.p.total();
    let mut siguiente = 0;
    while siguiente < total {
        reloj.tick().await;
        let ahora = t.inicio.elapsed().as_millis() as u64;
        while siguiente < total && t.p.llegada_de(siguiente) <= ahora {
            tokio::spawn(trabajo(t.p.llegada_de(siguiente), t.clone()));
            siguiente += 1;
        }
    }
}

/// Una muestra.
struct Muestra {
    ms: u64,
    llegados: u64,
    entrada: usize,
    cola: usize,
    calculando: usize,
    salida: usize,
    terminados: usize,
    tokio_ocupado: f64,
    rayon_ocupado: f64,
}

fn main() {
    let opciones: Opciones = opciones::de_la_linea_de_ordenes();
    let p = if opciones.rapido { Parametros::rapidos() } else { Parametros::normales() };
    let nucleos = std::thread::available_parallelism().map_or(1, |n| n.get());
    let hilos_tokio = opciones.hilos_tokio.unwrap_or(nucleos);
    let hilos_rayon = opciones.hilos_rayon.unwrap_or(nucleos);
    let vueltas = calibra(p.cpu);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(hilos_tokio)
        .enable_all()
        .build()
        .expect("no arranca el runtime");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(hilos_rayon)
        .thread_name(|i| format!("rayon-{i}"))
        .build()
        .expect("no arranca el pool de Rayon");

    println!(
        "Máquina: {nucleos} núcleos, {} {}; Tokio con {hilos_tokio} hilos trabajadores; Rayon con {hilos_rayon} hilos.",
        std::env::consts::OS,
        std::env::consts::ARCH
    );
    println!(
        "Cada trabajo: {} ms de E/S en Tokio, {} ms de CPU en Rayon (medidos en un núcleo libre) y {} ms de E/S en Tokio.",
        p.entrada.as_millis(),
        p.cpu.as_millis(),
        p.salida.as_millis()
    );
    println!(
        "Llega un trabajo cada {} ms; de {} a {} ms, un pico de {} por ms. {} trabajos en total; \
         con un núcleo libre por hilo, Rayon calcularía {} por segundo.",
        p.periodo_ms,
        p.pico_desde_ms,
        p.pico_hasta_ms,
        p.por_ms_pico,
        entero(p.total()),
        entero((hilos_rayon as u128 * 1000 / p.cpu.as_millis().max(1)) as u64)
    );
    println!();
    println!(
        "{:>6} {:>9} | {:>12} | {:>9} {:>11} | {:>12} | {:>10} | {:>8} {:>8}",
        "", "", "Tokio", "Rayon", "Rayon", "Tokio", "", "Tokio", "Rayon"
    );
    println!(
        "{:>6} {:>9} | {:>12} | {:>9} {:>11} | {:>12} | {:>10} | {:>8} {:>8}",
        "ms", "llegados", "E/S entrada", "en cola", "calculando", "E/S salida", "terminados", "ocupado", "ocupado"
    );

    let t = Arc::new(Tuberia {
        p: p.clone(),
        vueltas,
        pool,
        inicio: Instant::now(),
        en_entrada: AtomicUsize::new(0),
        en_cola_rayon: AtomicUsize::new(0),
        calculando: AtomicUsize::new(0),
        en_salida: AtomicUsize::new(0),
        terminados: AtomicUsize::new(0),
        rayon_ns: AtomicU64::new(0),
        latencias: Mutex::new(Vec::new()),
    });
    runtime.spawn(genera(t.clone()));

    // El medidor es este mismo hilo, que no es del runtime.
    let metricas = runtime.handle().metrics();
    let ocupado_tokio =
        || -> Duration { (0..metricas.num_workers()).map(|w| metricas.worker_total_busy_duration(w)).sum() };
    let total = p.total() as usize;
    let mut muestras: Vec<Muestra> = Vec::new();
    let (mut tokio_antes, mut rayon_antes, mut t_antes) = (ocupado_tokio(), 0u64, Duration::ZERO);
    for n in 1u32.. {
        if let Some(falta) = (p.muestreo * n).checked_sub(t.inicio.elapsed()) {
            std::thread::sleep(falta);
        }
        let ahora = t.inicio.elapsed();
        let (tokio_ahora, rayon_ahora) = (ocupado_tokio(), t.rayon_ns.load(Ordering::Relaxed));
        let intervalo = (ahora - t_antes).as_secs_f64();
        let m = Muestra {
            ms: ahora.as_millis() as u64,
            llegados: p.llegados_hasta(ahora.as_millis() as u64).min(p.total()),
            entrada: t.en_entrada.load(Ordering::Relaxed),
            cola: t.en_cola_rayon.load(Ordering::Relaxed),
            calculando: t.calculando.load(Ordering::Relaxed),
            salida: t.en_salida.load(Ordering::Relaxed),
            terminados: t.terminados.load(Ordering::Relaxed),
            tokio_ocupado: 100.0 * (tokio_ahora - tokio_antes).as_secs_f64() / (intervalo * hilos_tokio as f64),
            rayon_ocupado: 100.0 * (rayon_ahora - rayon_antes) as f64 / 1e9 / (intervalo * hilos_rayon as f64),
        };
        (tokio_antes, rayon_antes, t_antes) = (tokio_ahora, rayon_ahora, ahora);
        println!(
            "{:>6} {:>9} | {:>12} | {:>9} {:>11} | {:>12} | {:>10} | {:>7}% {:>7}%",
            entero(m.ms),
            entero(m.llegados),
            entero(m.entrada as u64),
            entero(m.cola as u64),
            entero(m.calculando as u64),
            entero(m.salida as u64),
            entero(m.terminados as u64),
            numero(m.tokio_ocupado, 0),
            numero(m.rayon_ocupado.min(100.0), 0)
        );
        let fin = m.terminados >= total;
        muestras.push(m);
        if fin {
            break;
        }
        if ahora > p.limite {
            eprintln!("error: la tubería no terminó en {} s; algo se quedó atascado", p.limite.as_secs());
            std::process::exit(1);
        }
    }

    let pico: Vec<&Muestra> = muestras.iter().filter(|m| m.ms > p.pico_desde_ms && m.ms <= p.pico_hasta_ms).collect();
    if !pico.is_empty() {
        let media = |f: fn(&Muestra) -> f64| pico.iter().map(|m| f(m)).sum::<f64>() / pico.len() as f64;
        println!();
        println!(
            "Durante el pico, de media: hilos de Tokio ocupados el {} % del tiempo; hilos de Rayon, el {} %.",
            numero(media(|m| m.tokio_ocupado), 0),
            numero(media(|m| m.rayon_ocupado.min(100.0)), 0)
        );
    }
    if let Some(max) = muestras.iter().max_by_key(|m| m.cola) {
        println!(
            "Máximo visto en la cola de Rayon: {} trabajos, a los {} ms.",
            entero(max.cola as u64),
            entero(max.ms)
        );
    }

    let latencias = std::mem::take(&mut *t.latencias.lock().unwrap());
    println!();
    println!("Latencia de extremo a extremo (desde que llega el trabajo hasta que termina su E/S de salida):");
    println!("{:<28} {:>9} {:>10} {:>10} {:>10} {:>10}", "", "trabajos", "p50", "p90", "p99", "máxima");
    let fila = |etiqueta: &str, mut v: Vec<u32>| {
        v.sort_unstable();
        let ms =
            |q: f64| percentil(&v, q).map_or("-".to_string(), |us| format!("{} ms", numero(f64::from(us) / 1000.0, 1)));
        println!(
            "{:<28} {:>9} {:>10} {:>10} {:>10} {:>10}",
            etiqueta,
            entero(v.len() as u64),
            ms(50.0),
            ms(90.0),
            ms(99.0),
            ms(100.0)
        );
    };
    for fase in Fase::TODAS {
        fila(fase.etiqueta(), latencias.iter().filter(|(l, _)| p.fase(*l) == fase).map(|(_, us)| *us).collect());
    }
    fila("todos", latencias.iter().map(|(_, us)| *us).collect());
    let minimo = p.entrada + p.cpu + p.salida;
    println!(
        "(Sin esperar a nadie, un trabajo tardaría {} ms: {} + {} + {}.)",
        minimo.as_millis(),
        p.entrada.as_millis(),
        p.cpu.as_millis(),
        p.salida.as_millis()
    );
    runtime.shutdown_timeout(Duration::from_secs(1));
}
