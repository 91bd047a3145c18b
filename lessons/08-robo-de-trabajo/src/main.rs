//! Una ráfaga de tareas de cálculo en el *runtime* multihilo, y lo que dicen
//! las métricas del *runtime* sobre cómo se la repartieron los trabajadores.
//!
//! ```text
//! cargo run -p leccion-08 --release            # métricas estables
//! cargo planificador                           # con --cfg tokio_unstable: robos, sondeos, colas
//! cargo planificador -- --tareas 1000          # más de 256: desbordes
//! cargo run -p leccion-08 -- --rapido          # la ráfaga pequeña de las pruebas
//! ```

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use leccion_08::{Opciones, calcula};
use medidas::{entero, numero};
use tokio::runtime::RuntimeMetrics;

/// Lo que una tarea de la ráfaga cuenta de sí misma.
struct Ejecucion {
    tarea: u32,
    turno: usize,
    hilo: ThreadId,
    resultado: u64,
}

/// Lo que la ráfaga devuelve al acabar.
#[cfg_attr(not(tokio_unstable), allow(dead_code))] // los dos últimos campos
struct Rafaga {
    lanzador: ThreadId,
    duracion: Duration,
    ejecuciones: Vec<Ejecucion>,
    /// El hilo de cada trabajador (solo se sabe con `tokio_unstable`).
    hilos_de_trabajadores: Vec<Option<ThreadId>>,
    /// La cola local de cada trabajador justo después de lanzar la ráfaga.
    colas_tras_lanzar: Vec<usize>,
}

fn main() {
    let opciones: Opciones = opciones::de_la_linea_de_ordenes();

    let mut constructor = tokio::runtime::Builder::new_multi_thread();
    if let Some(n) = opciones.trabajadores {
        constructor.worker_threads(n);
    }
    let runtime = constructor.enable_all().build().expect("no se pudo crear el runtime");
    let metricas = runtime.metrics();

    // Un hilo aparte mira las colas cada 100 µs mientras dura la ráfaga.
    let parar = Arc::new(AtomicBool::new(false));
    let muestreo = {
        let (metricas, parar) = (metricas.clone(), parar.clone());
        std::thread::spawn(move || muestrea(&metricas, &parar))
    };

    // La ráfaga se lanza DESDE una tarea, es decir, desde un hilo trabajador:
    // así las tareas nuevas van a su ranura LIFO y a su cola local. Lanzadas
    // desde fuera (desde `main`), irían a la cola global.
    let rafaga =
        runtime.block_on(async { tokio::spawn(rafaga(opciones.clone())).await }).expect("la ráfaga no debería fallar");
    parar.store(true, Ordering::Relaxed);
    let maximos = muestreo.join().expect("el muestreo no debería fallar");

    // Cada trabajador publica sus contadores al aparcar y en su mantenimiento;
    // al apagar el runtime los publica todos.
    drop(runtime);

    informe(&opciones, &metricas, &rafaga, &maximos);
}

// ANCHOR: rafaga
async fn rafaga(opciones: Opciones) -> Rafaga {
    let lanzador = std::thread::current().id();
    let turnos = Arc::new(AtomicUsize::new(0));
    let inicio = Instant::now();
    let tareas: Vec<_> = (0..opciones.tareas)
        .map(|tarea| {
            let turnos = turnos.clone();
            tokio::spawn(async move {
                let turno = turnos.fetch_add(1, Ordering::Relaxed); // orden de llegada
                let resultado = calcula(u64::from(tarea), opciones.vueltas);
                Ejecucion { tarea, turno, hilo: std::thread::current().id(), resultado }
            })
        })
        .collect();
    let colas_tras_lanzar = colas_locales(&tokio::runtime::Handle::current().metrics());

    let mut ejecuciones = Vec::with_capacity(tareas.len());
    for tarea in tareas {
        ejecuciones.push(tarea.await.expect("ninguna tarea debería fallar"));
    }
    // ANCHOR_END: rafaga
    let duracion = inicio.elapsed();
    let hilos_de_trabajadores = hilos_de_trabajadores(&tokio::runtime::Handle::current().metrics());
    Rafaga { lanzador, duracion, ejecuciones, hilos_de_trabajadores, colas_tras_lanzar }
}

/// Máximos vistos por el muestreo: cola global y cola local de cada trabajador.
struct Maximos {
    global: usize,
    locales: Vec<usize>,
}

fn muestrea(metricas: &RuntimeMetrics, parar: &AtomicBool) -> Maximos {
    let mut maximos = Maximos { global: 0, locales: vec![0; metricas.num_workers()] };
    while !parar.load(Ordering::Relaxed) {
        maximos.global = maximos.global.max(metricas.global_queue_depth());
        for (maximo, ahora) in maximos.locales.iter_mut().zip(colas_locales(metricas)) {
            *maximo = (*maximo).max(ahora);
        }
        std::thread::sleep(Duration::from_micros(100));
    }
    maximos
}

// ANCHOR: inestables
/// La profundidad de la cola local de cada trabajador (vacío sin `tokio_unstable`).
#[cfg(tokio_unstable)]
fn colas_locales(metricas: &RuntimeMetrics) -> Vec<usize> {
    (0..metricas.num_workers()).map(|w| metricas.worker_local_queue_depth(w)).collect()
}

#[cfg(not(tokio_unstable))]
fn colas_locales(_metricas: &RuntimeMetrics) -> Vec<usize> {
    Vec::new()
}
// ANCHOR_END: inestables

#[cfg(tokio_unstable)]
fn hilos_de_trabajadores(metricas: &RuntimeMetrics) -> Vec<Option<ThreadId>> {
    (0..metricas.num_workers()).map(|w| metricas.worker_thread_id(w)).collect()
}

#[cfg(not(tokio_unstable))]
fn hilos_de_trabajadores(_metricas: &RuntimeMetrics) -> Vec<Option<ThreadId>> {
    Vec::new()
}

/// Cuántas tareas corrió un hilo y cuál fue la primera.
#[derive(Default)]
struct PorHilo {
    tareas: usize,
    primera: Option<(usize, u32)>, // (turno, tarea)
}

fn por_hilo(ejecuciones: &[Ejecucion]) -> HashMap<ThreadId, PorHilo> {
    let mut hilos: HashMap<ThreadId, PorHilo> = HashMap::new();
    for e in ejecuciones {
        let h = hilos.entry(e.hilo).or_default();
        h.tareas += 1;
        if h.primera.is_none_or(|(turno, _)| e.turno < turno) {
            h.primera = Some((e.turno, e.tarea));
        }
    }
    hilos
}

fn informe(opciones: &Opciones, metricas: &RuntimeMetrics, rafaga: &Rafaga, maximos: &Maximos) {
    let n = opciones.tareas;
    let trabajadores = metricas.num_workers();
    let suma = rafaga.ejecuciones.iter().fold(0u64, |s, e| s.wrapping_add(e.resultado));
    println!("Runtime multihilo con {trabajadores} trabajadores (num_workers)");
    println!(
        "Ráfaga: {} tareas de cálculo lanzadas desde un hilo trabajador, {} vueltas cada una",
        entero(u64::from(n)),
        entero(u64::from(opciones.vueltas))
    );
    println!("Tiempo de la ráfaga:             {} ms", numero(rafaga.duracion.as_secs_f64() * 1000.0, 1));
    println!("Suma de comprobación:            {suma:016x}");

    // Lo que se ve sin métricas: en qué hilo corrió cada tarea.
    let hilos = por_hilo(&rafaga.ejecuciones);
    let propias = hilos.get(&rafaga.lanzador);
    let en_otros = n as usize - propias.map_or(0, |h| h.tareas);
    println!();
    println!("Por hilo (sin métricas: cada tarea anota en qué hilo corrió):");
    if let Some(h) = propias {
        let (_, primera) = h.primera.expect("corrió al menos una");
        println!(
            "  el hilo que lanzó la ráfaga:   {:>4} tareas; la primera que corrió fue la {primera} \
             (se lanzaron de la 0 a la {})",
            entero(h.tareas as u64),
            n - 1
        );
    }
    println!(
        "  los demás hilos:               {:>4} tareas (solo pudieron llegarles robando o por la cola global)",
        entero(en_otros as u64)
    );
    let mut otros: Vec<_> = hilos.iter().filter(|(hilo, _)| **hilo != rafaga.lanzador).collect();
    otros.sort_by_key(|(_, h)| h.primera);
    for (_, h) in otros {
        let (_, primera) = h.primera.expect("corrió al menos una");
        println!("    un hilo:                     {:>4} tareas; la primera fue la {primera}", entero(h.tareas as u64));
    }

    println!();
    println!("Métricas estables (RuntimeMetrics, sin banderas):");
    println!("  máximo visto en la cola global (global_queue_depth): {}", entero(maximos.global as u64));
    estables_por_trabajador(metricas);

    println!();
    inestables(metricas, rafaga, maximos);
}

#[cfg(target_has_atomic = "64")]
fn estables_por_trabajador(metricas: &RuntimeMetrics) {
    println!("  trabajador   veces aparcado   tiempo ocupado");
    println!("               (park_count)     (total_busy_duration)");
    for w in 0..metricas.num_workers() {
        println!(
            "  {w:>10}   {:>14}   {:>10} ms",
            entero(metricas.worker_park_count(w)),
            numero(metricas.worker_total_busy_duration(w).as_secs_f64() * 1000.0, 1)
        );
    }
}

#[cfg(not(target_has_atomic = "64"))]
fn estables_por_trabajador(_metricas: &RuntimeMetrics) {
    println!("  (esta plataforma no tiene atómicos de 64 bits: Tokio no ofrece park_count ni total_busy_duration)");
}

#[cfg(tokio_unstable)]
fn inestables(metricas: &RuntimeMetrics, rafaga: &Rafaga, maximos: &Maximos) {
    let hilos = por_hilo(&rafaga.ejecuciones);
    println!("Métricas inestables (compilado con --cfg tokio_unstable):");
    println!("  trab.  sondeos  robadas  robos  desbordes  cola tras lanzar  cola máx.  tareas de la ráfaga");
    println!("         (poll)   (steal)  (ops)  (overflow)");
    for w in 0..metricas.num_workers() {
        let tareas = rafaga.hilos_de_trabajadores.get(w).copied().flatten().and_then(|h| hilos.get(&h));
        let lanzo = rafaga.hilos_de_trabajadores.get(w) == Some(&Some(rafaga.lanzador));
        let tras_lanzar = rafaga.colas_tras_lanzar.get(w).copied().unwrap_or(0);
        println!(
            "  {w:>5}  {:>7}  {:>7}  {:>5}  {:>10}  {:>16}  {:>9}  {:>5}{}",
            entero(metricas.worker_poll_count(w)),
            entero(metricas.worker_steal_count(w)),
            entero(metricas.worker_steal_operations(w)),
            entero(metricas.worker_overflow_count(w)),
            entero(tras_lanzar as u64),
            entero(maximos.locales.get(w).copied().unwrap_or(0).max(tras_lanzar) as u64),
            entero(tareas.map_or(0, |h| h.tareas) as u64),
            if lanzo { "  (lanzó la ráfaga)" } else { "" }
        );
    }
    println!("  tareas lanzadas en total (spawned_tasks_count):       {}", entero(metricas.spawned_tasks_count()));
    println!("  programadas desde fuera (remote_schedule_count):      {}", entero(metricas.remote_schedule_count()));
    println!(
        "  cesiones forzadas por presupuesto (budget_forced_yield_count): {}",
        entero(metricas.budget_forced_yield_count())
    );
    for w in 0..metricas.num_workers() {
        let media = metricas.worker_mean_poll_time(w);
        println!(
            "  trabajador {w}: sondeo medio {} ms → intervalo de la cola global: {} vueltas",
            numero(media.as_secs_f64() * 1000.0, 3),
            entero(u64::from(leccion_08::intervalo_de_la_global(media.as_nanos() as f64)))
        );
    }
}

#[cfg(not(tokio_unstable))]
fn inestables(_metricas: &RuntimeMetrics, _rafaga: &Rafaga, _maximos: &Maximos) {
    println!("Métricas inestables: no están en esta compilación.");
    println!("  Sondeos, robos, desbordes y colas locales por trabajador solo existen si");
    println!("  compilas con --cfg tokio_unstable. Con el alias del curso (usa su propio");
    println!("  directorio target/tokio-inestable y no toca el resto del workspace):");
    println!("    cargo planificador");
    println!("  o bien, a mano:");
    println!(
        "    RUSTFLAGS=\"--cfg tokio_unstable\" cargo run -p leccion-08 --release --target-dir target/tokio-inestable"
    );
}
