//! Peticiones ligeras frente a trabajo de CPU: latencias p50, p99 y máxima
//! de las ligeras en cuatro escenarios.
//!
//! ```text
//! cargo run -p leccion-05 --release                 # 5 s por escenario
//! cargo run -p leccion-05 --release -- --segundos 10
//! cargo run -p leccion-05 -- --rapido               # 0,8 s por escenario, lo que usan las pruebas
//! ```
//!
//! En modo completo guarda además la peor latencia de cada ventana de 10 ms
//! en `resultados/latencia.csv`, que `grafica-latencia` dibuja para el libro.

use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use leccion_05::{
    Escenario, INTERVALO_LIGERAS, LENTA, Opciones, PERIODO_PESADAS, PESADA, PRIMERA_RAFAGA, Resumen, peor_por_ventana,
    peticion_pesada, resume, trabajo_ligero,
};
use medidas::{entero, numero};

fn main() {
    let opciones: Opciones = opciones::de_la_linea_de_ordenes();
    let nucleos = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Tantos hilos trabajadores como núcleos (lo que Tokio hace por defecto),
    // y un pool de Rayon del mismo tamaño.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(nucleos)
        .enable_all()
        .build()
        .expect("no se pudo crear el runtime");
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(nucleos)
            .thread_name(|i| format!("rayon-{i}"))
            .build()
            .expect("no se pudo crear el pool de Rayon"),
    );

    let s = if nucleos == 1 { "" } else { "s" };
    let es = if nucleos == 1 { "" } else { "es" };
    println!(
        "Máquina: {nucleos} núcleo{s}, {} {}; runtime de Tokio con {nucleos} hilo{s} trabajador{es}; \
         pool de Rayon con {nucleos} hilo{s}",
        std::env::consts::OS,
        std::env::consts::ARCH
    );
    println!(
        "Cada escenario dura {} s. Llega una petición ligera cada {} ms; en (b), (c) y (d), \
         cada {} ms llega además una ráfaga de {nucleos} petici{} pesada{s} (una por hilo \
         trabajador) que calcula{} {} ms cada una.",
        numero(opciones.duracion().as_secs_f64(), 1),
        INTERVALO_LIGERAS.as_millis(),
        PERIODO_PESADAS.as_millis(),
        if nucleos == 1 { "ón" } else { "ones" },
        if nucleos == 1 { "" } else { "n" },
        PESADA.as_millis(),
    );
    println!();
    println!("Latencia de las peticiones ligeras (desde que llegan hasta que terminan):");
    let lentas = format!("> {} ms", LENTA.as_millis());
    println!(
        "{:<38} {:>8} {:>10} {:>10} {:>10} {:>9} {:>8}",
        "escenario", "ligeras", "p50", "p99", "máxima", lentas, "pesadas"
    );
    let mut csv = String::from("escenario,ms,peor_ms\n");
    for escenario in Escenario::TODOS {
        let (muestras, pesadas) = mide(&runtime, &pool, escenario, opciones.duracion(), nucleos);
        for (ms, peor) in peor_por_ventana(&muestras) {
            csv.push_str(&format!("{},{ms},{peor:.3}\n", escenario.nombre()));
        }
        let mut latencias: Vec<Duration> = muestras.iter().map(|&(_, l)| l).collect();
        let resumen = resume(&mut latencias);
        match resumen {
            Some(Resumen { muestras, p50, p99, maxima, lentas }) => println!(
                "{:<38} {:>8} {:>10} {:>10} {:>10} {:>8} % {:>8}",
                escenario.etiqueta(),
                entero(muestras as u64),
                ms(p50),
                ms(p99),
                ms(maxima),
                numero(100.0 * lentas as f64 / muestras as f64, 1),
                entero(pesadas as u64)
            ),
            None => println!("{:<38} sin muestras", escenario.etiqueta()),
        }
    }
    runtime.shutdown_timeout(Duration::from_secs(1));
    if let Some(ruta) = &opciones.csv() {
        if let Some(carpeta) = ruta.parent() {
            let _ = std::fs::create_dir_all(carpeta);
        }
        match std::fs::write(ruta, csv) {
            Ok(()) => println!("\nPeor latencia de cada ventana de 10 ms escrita en {}.", ruta.display()),
            Err(e) => {
                eprintln!("error: no puedo escribir {}: {e}", ruta.display());
                std::process::exit(1);
            }
        }
    }
}

/// Un escenario: este hilo (que no es del *runtime*) hace de red. Cada
/// milisegundo «llega» una petición ligera, que se lanza como tarea; y cada
/// [`PERIODO_PESADAS`], una ráfaga de pesadas. Devuelve, de cada ligera,
/// cuándo llegó (desde el inicio) y cuánto tardó; y cuántas pesadas se
/// atendieron.
fn mide(
    runtime: &tokio::runtime::Runtime,
    pool: &Arc<rayon::ThreadPool>,
    escenario: Escenario,
    duracion: Duration,
    rafaga: usize,
) -> (Vec<(Duration, Duration)>, usize) {
    let handle = runtime.handle().clone();
    let (tx, rx) = mpsc::channel::<(Duration, Duration)>();
    let mut pesadas = Vec::new();
    let inicio = Instant::now();
    let mut siguiente_rafaga = inicio + PRIMERA_RAFAGA;
    for i in 0u32.. {
        let objetivo = inicio + INTERVALO_LIGERAS * i;
        if objetivo >= inicio + duracion {
            break;
        }
        if let Some(falta) = objetivo.checked_duration_since(Instant::now()) {
            std::thread::sleep(falta);
        }
        if escenario != Escenario::SoloLigeras && Instant::now() >= siguiente_rafaga {
            for _ in 0..rafaga {
                pesadas.push(handle.spawn(peticion_pesada(escenario, pool.clone())));
            }
            siguiente_rafaga += PERIODO_PESADAS;
        }
        // ANCHOR: ligera
        let tx = tx.clone();
        let llegada = Instant::now();
        handle.spawn(async move {
            std::hint::black_box(trabajo_ligero(u64::from(i)));
            let _ = tx.send((llegada - inicio, llegada.elapsed()));
        });
        // ANCHOR_END: ligera
    }
    drop(tx);
    let atendidas = pesadas.len();
    for pesada in pesadas {
        runtime.block_on(pesada).expect("una petición pesada falló");
    }
    // El canal se cierra cuando la última tarea ligera suelta su emisor.
    (rx.iter().collect(), atendidas)
}

fn ms(d: Duration) -> String {
    format!("{} ms", numero(d.as_secs_f64() * 1000.0, 2))
}
