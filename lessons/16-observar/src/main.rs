//! `cargo run -p leccion-16 --release`: ver lo que hacen las tareas.
//!
//! 1. Tramos por petición y por tarea, con un suscriptor propio.
//! 2. Las métricas estables del *runtime*, muestreadas mientras una petición
//!    bloquea su trabajador.
//! 3. Lo que cuesta instrumentar, por petición y por sondeo (con `cargo observar`,
//!    también con la capa de la consola de Tokio).
//!
//! El volcado de tareas está en el otro programa, `src/bin/volcado.rs`
//! (`cargo volcado`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use leccion_16::*;
use medidas::{entero, mediana_y_extremos, numero};
use tokio::sync::Notify;
use tokio::task::JoinSet;
use tracing::Dispatch;
use tracing_subscriber::layer::SubscriberExt;

fn main() {
    let opciones: Opciones = opciones::de_la_linea_de_ordenes();
    let consola = instala_consola();
    parte_tramos();
    let rt = parte_metricas(&opciones);
    parte_saturado(&opciones);
    parte_coste(&opciones, consola.as_ref());
    mantiene_para_la_consola(&rt, &opciones);
    rt.shutdown_timeout(Duration::from_millis(100));
}

fn parte_tramos() {
    println!("1. Tramos: dos peticiones a la vez en un runtime de un hilo, vistas por el Cronista");
    let cronista = Cronista::default();
    let suscriptor = tracing_subscriber::registry().with(cronista.clone());
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    tracing::subscriber::with_default(suscriptor, || {
        rt.block_on(async {
            let lenta = tokio::spawn(atiende(1, Duration::from_millis(30)));
            let rapida = tokio::spawn(atiende(2, Duration::from_millis(5)));
            let _ = (lenta.await, rapida.await);
        })
    });
    for linea in cronista.lineas.lock().unwrap().iter() {
        println!("   {linea}");
    }
    println!();
}

/// Una petición del servicio de la segunda parte; la lenta bloquea su trabajador.
#[tracing::instrument(skip(bloqueo))]
async fn peticion_servicio(id: u64, lenta: bool, bloqueo: Duration) -> u64 {
    tokio::time::sleep(Duration::from_millis(1)).await;
    if lenta {
        // El error que buscamos: una llamada bloqueante dentro de una tarea.
        thread::sleep(bloqueo);
    }
    std::hint::black_box(id * 2)
}

fn parte_metricas(o: &Opciones) -> tokio::runtime::Runtime {
    println!("2. Métricas estables, cada {} ms, en un runtime de 2 trabajadores", o.paso().as_millis());
    println!("   (una petición bloquea su trabajador {} ms con thread::sleep)", o.bloqueo().as_millis());
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let handle = rt.handle().clone();
    let aviso = Arc::new(Notify::new());
    rt.spawn(espera_al_inventario(aviso.clone()));
    // ANCHOR: monitor
    // Métricas por tarea, en Tokio estable: cada petición va envuelta en el
    // mismo monitor, que suma sus sondeos, su espera en la cola y su tiempo inactivo.
    let mut constructor = tokio_metrics::TaskMonitor::builder();
    constructor
        .with_slow_poll_threshold(Duration::from_millis(10))
        .with_long_delay_threshold(Duration::from_millis(10));
    let monitor = constructor.build();
    // ANCHOR_END: monitor

    let parar = Arc::new(AtomicBool::new(false));
    let inicio = Instant::now();
    let muestreador = {
        let (handle, parar, paso) = (handle.clone(), parar.clone(), o.paso());
        thread::spawn(move || {
            let mut muestras = Vec::new();
            while !parar.load(Ordering::SeqCst) {
                muestras.push(muestrea(&handle.metrics(), inicio.elapsed()));
                thread::sleep(paso);
            }
            muestras.push(muestrea(&handle.metrics(), inicio.elapsed()));
            muestras
        })
    };
    // Peticiones cada 2 ms desde fuera del runtime (entran por la cola global).
    let total = o.bloqueo() * 2 + Duration::from_millis(100);
    let mut id = 0;
    while inicio.elapsed() < total {
        handle.spawn(monitor.instrument(peticion_servicio(id, id == 25, o.bloqueo())));
        id += 1;
        thread::sleep(Duration::from_millis(2));
    }
    thread::sleep(Duration::from_millis(20));
    parar.store(true, Ordering::SeqCst);
    let muestras = muestreador.join().unwrap();

    println!("   t (ms) | ocupado +ms (t0, t1) | aparca/despierta (t0, t1) | vivas | cola global");
    for par in muestras.windows(2) {
        let (a, b) = (&par[0], &par[1]);
        let delta = |w: usize| numero((b.ocupado[w] - a.ocupado[w]).as_secs_f64() * 1000.0, 1);
        println!(
            "   {:>6} | {:>8} {:>8}    | {:>8} {:>8}         | {:>5} | {:>5}",
            numero(b.instante.as_secs_f64() * 1000.0, 0),
            delta(0),
            delta(1),
            entero(b.aparca[0]),
            entero(b.aparca[1]),
            entero(b.tareas_vivas as u64),
            entero(b.cola_global as u64)
        );
    }
    println!("   peticiones lanzadas: {}", entero(id));
    let mut salto = (0.0, 0, Duration::ZERO);
    for par in muestras.windows(2) {
        for w in 0..par[1].ocupado.len() {
            let d = (par[1].ocupado[w] - par[0].ocupado[w]).as_secs_f64() * 1000.0;
            if d > salto.0 {
                salto = (d, w, par[1].instante);
            }
        }
    }
    println!(
        "   salto mayor del tiempo ocupado: {} ms en una sola muestra (trabajador {}, t = {} ms)",
        numero(salto.0, 1),
        salto.1,
        numero(salto.2.as_secs_f64() * 1000.0, 0)
    );
    lecturas(&muestras);
    let m = monitor.cumulative();
    println!(
        "   TaskMonitor, {} peticiones: {} sondeos, {} lentos (de 10 ms o más) que suman {} ms; \
         {} esperas en la cola de 10 ms o más",
        entero(m.instrumented_count),
        entero(m.total_poll_count),
        entero(m.total_slow_poll_count),
        numero(ms(m.total_slow_poll_duration), 1),
        entero(m.total_long_delay_count)
    );
    println!(
        "   TaskMonitor, por término medio: sondeo {} ms, espera en la cola {} ms, inactiva {} ms",
        numero(ms(m.mean_poll_duration()), 3),
        numero(ms(m.mean_scheduled_duration()), 3),
        numero(ms(m.mean_idle_duration()), 3)
    );
    println!(
        "   tareas vivas al final: {} (una es la que espera al inventario)",
        entero(handle.metrics().num_alive_tasks() as u64)
    );
    println!();
    rt
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Una diferencia sin decimales y con su signo siempre delante: `+197`, `-12`, `+1 618`.
fn con_signo(x: f64) -> String {
    let texto = numero(x, 0);
    if texto.starts_with('-') { texto } else { format!("+{texto}") }
}

/// Lo que dicen las dos reglas sobre unas muestras: solo el contador, y el
/// contador con el tiempo ocupado.
fn lecturas(muestras: &[Muestra]) {
    let di = |(w, desde, hasta): (usize, Duration, Duration)| {
        format!(
            "al trabajador {w}, de {} a {} ms ({} ms)",
            numero(ms(desde), 0),
            numero(ms(hasta), 0),
            numero(ms(hasta - desde), 0)
        )
    };
    match tramo_con_solo_el_contador(muestras) {
        Some(t) => println!("   regla con solo el contador (par y quieto): señala {}", di(t)),
        None => println!("   regla con solo el contador (par y quieto): no señala a nadie"),
    }
    match tramo_mas_quieto(muestras) {
        Some(t) => println!("   regla con el contador y el tiempo ocupado (los dos quietos): señala {}", di(t)),
        None => println!("   regla con el contador y el tiempo ocupado (los dos quietos): no señala a nadie"),
    }
}

/// Una tarea que calcula y cede hasta `fin`: tiene siempre trabajo.
async fn calcula_y_cede(fin: Instant) -> u64 {
    let mut x = 1u64;
    while Instant::now() < fin {
        for _ in 0..2_000 {
            x = std::hint::black_box(x.rotate_left(5) ^ 0x9E37_79B9);
        }
        tokio::task::yield_now().await;
    }
    x
}

/// 2b. Un runtime saturado y sano: los dos trabajadores tienen siempre
/// trabajo, no se aparcan nunca y su contador queda par y quieto, pero su
/// tiempo ocupado sube en cada vuelta de mantenimiento.
fn parte_saturado(o: &Opciones) {
    println!(
        "2b. Un runtime saturado y sano: 4 tareas que calculan y ceden durante {} ms en 2 trabajadores",
        o.bloqueo().as_millis()
    );
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let inicio = Instant::now();
    let fin = inicio + o.bloqueo() + Duration::from_millis(20);
    let tareas: Vec<_> = (0..4).map(|_| rt.spawn(calcula_y_cede(fin))).collect();
    // Las muestras empiezan cuando ya todos trabajan y acaban antes de que paren.
    thread::sleep(Duration::from_millis(10));
    let mut muestras = Vec::new();
    while Instant::now() + o.paso() < fin {
        muestras.push(muestrea(&rt.metrics(), inicio.elapsed()));
        thread::sleep(o.paso());
    }
    for w in 0..2 {
        let (a, b) = (muestras.first().unwrap(), muestras.last().unwrap());
        println!(
            "   trabajador {w}: aparca/despierta {} → {}; tiempo ocupado +{} ms en {} ms",
            entero(a.aparca[w]),
            entero(b.aparca[w]),
            numero(ms(b.ocupado[w] - a.ocupado[w]), 1),
            numero(ms(b.instante - a.instante), 0)
        );
    }
    lecturas(&muestras);
    rt.block_on(async {
        for t in tareas {
            let _ = t.await;
        }
    });
    println!();
}

/// Una variante de la medida de coste: su nombre, cómo se crea su suscriptor
/// y si instrumenta.
struct Variante {
    nombre: &'static str,
    despacho: Box<dyn Fn() -> Dispatch>,
    instrumentada: bool,
}

/// El tiempo de CPU que lleva gastado este hilo. El *runtime* de la medida es
/// de un solo hilo, así que es lo que costó la ronda, sin contar el tiempo en
/// que el sistema le dio la CPU a otro proceso (en Unix; en otros sistemas,
/// el reloj de pared).
fn cpu_del_hilo() -> Duration {
    #[cfg(unix)]
    {
        let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `t` es un `timespec` válido y el reloj existe en Linux y macOS.
        let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
        assert_eq!(r, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) falló");
        Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
    }
    #[cfg(not(unix))]
    {
        static INICIO: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
        INICIO.get_or_init(Instant::now).elapsed()
    }
}

/// Una ronda de una variante. Su suscriptor se crea aquí y se suelta al
/// acabar: así, durante la ronda, es el único que existe, como en un
/// programa de verdad, y `tracing` guarda en cada punto de instrumentación
/// lo que ese suscriptor quiere (el nulo, nada; `fmt` con nivel WARN, nada
/// de nivel INFO). Con varios vivos a la vez, cada tramo preguntaría a todos.
fn una_ronda(rt: &tokio::runtime::Runtime, v: &Variante, peticiones: u32) -> Duration {
    let despacho = (v.despacho)();
    tracing::dispatcher::with_default(&despacho, || {
        let inicio = cpu_del_hilo();
        rt.block_on(async {
            let mut tareas = JoinSet::new();
            for id in 0..peticiones as u64 {
                if v.instrumentada {
                    tareas.spawn(peticion_con(id, SONDEOS));
                } else {
                    tareas.spawn(peticion_sin(id, SONDEOS));
                }
            }
            while tareas.join_next().await.is_some() {}
        });
        cpu_del_hilo() - inicio
    })
}

fn parte_coste(o: &Opciones, consola: Option<&Dispatch>) {
    println!(
        "3. Coste de instrumentar (CPU del hilo): {} peticiones de {} sondeos por ronda, {} rondas intercaladas por variante",
        entero(u64::from(o.peticiones())),
        SONDEOS + 1,
        o.rondas()
    );
    let nulo = || Dispatch::new(tracing::subscriber::NoSubscriber::default());
    let mut variantes = vec![
        Variante { nombre: "sin tracing", despacho: Box::new(nulo), instrumentada: false },
        Variante { nombre: "tracing, suscriptor nulo", despacho: Box::new(nulo), instrumentada: true },
        Variante {
            nombre: "tracing, fmt a io::sink",
            despacho: Box::new(|| Dispatch::new(tracing_subscriber::fmt().with_writer(std::io::sink).finish())),
            instrumentada: true,
        },
        Variante {
            nombre: "tracing, fmt con nivel WARN",
            despacho: Box::new(|| {
                Dispatch::new(
                    tracing_subscriber::fmt().with_writer(std::io::sink).with_max_level(tracing::Level::WARN).finish(),
                )
            }),
            instrumentada: true,
        },
    ];
    if let Some(consola) = consola {
        let consola = consola.clone();
        variantes.push(Variante {
            nombre: "tracing, consola",
            despacho: Box::new(move || consola.clone()),
            instrumentada: true,
        });
    }
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    // Una ronda de calentamiento por variante, que no cuenta.
    for v in &variantes {
        una_ronda(&rt, v, o.peticiones());
    }
    let mut tiempos = vec![Vec::new(); variantes.len()];
    for _ in 0..o.rondas() {
        for (i, v) in variantes.iter().enumerate() {
            tiempos[i].push(una_ronda(&rt, v, o.peticiones()));
        }
    }
    let por_peticion: Vec<Vec<f64>> =
        tiempos.iter().map(|t| t.iter().map(|d| d.as_nanos() as f64 / o.peticiones() as f64).collect()).collect();
    let sondeos_por_peticion = (SONDEOS + 1) as f64;
    println!("   variante                     | ns/petición: mediana (Q1–Q3) [mín–máx] | ns/sondeo: mediana (Q1–Q3)");
    for (v, t) in variantes.iter().zip(&por_peticion) {
        let (q1, m, q3) = cuartiles(t).unwrap_or_default();
        let (_, a, b) = mediana_y_extremos(t).unwrap_or_default();
        let s = sondeos_por_peticion;
        println!(
            "   {:<28} | {:>5} ({:>5}–{:>5}) [{:>5}–{:>5}]    | {:>4} ({:>4}–{:>4})",
            v.nombre,
            numero(m, 0),
            numero(q1, 0),
            numero(q3, 0),
            numero(a, 0),
            numero(b, 0),
            numero(m / s, 0),
            numero(q1 / s, 0),
            numero(q3 / s, 0)
        );
    }
    // Cada ronda de una variante va justo después de la de «sin tracing»:
    // restarlas ronda a ronda quita lo que la máquina cambió entre rondas.
    println!("   diferencia con «sin tracing», ronda a ronda (ns/petición): mediana (Q1–Q3), rondas por encima");
    for (v, t) in variantes.iter().zip(&por_peticion).skip(1) {
        let diferencias: Vec<f64> = t.iter().zip(&por_peticion[0]).map(|(x, base)| x - base).collect();
        let (q1, m, q3) = cuartiles(&diferencias).unwrap_or_default();
        let encima = diferencias.iter().filter(|d| **d > 0.0).count();
        let base = cuartiles(&por_peticion[0]).map_or(1.0, |(_, m, _)| m);
        println!(
            "   {:<28} | {:>6} ({:>6} a {:>6}), {} %; por encima en {encima} de {}",
            v.nombre,
            con_signo(m),
            con_signo(q1),
            con_signo(q3),
            numero(100.0 * m / base, 1),
            diferencias.len()
        );
    }
    println!();
}

#[cfg(feature = "consola")]
fn instala_consola() -> Option<Dispatch> {
    let capa = console_subscriber::ConsoleLayer::builder().spawn();
    let despacho = Dispatch::new(tracing_subscriber::registry().with(capa));
    tracing::dispatcher::set_global_default(despacho.clone()).expect("no había otro suscriptor global");
    println!("0. Consola de Tokio escuchando en 127.0.0.1:6669 (conecta con `tokio-console`)");
    println!();
    Some(despacho)
}

#[cfg(not(feature = "consola"))]
fn instala_consola() -> Option<Dispatch> {
    None
}

fn mantiene_para_la_consola(rt: &tokio::runtime::Runtime, o: &Opciones) {
    if o.consola == 0 {
        return;
    }
    if cfg!(not(feature = "consola")) {
        println!("--consola: esta compilación no lleva la consola; usa `cargo observar -- --consola {}`", o.consola);
        return;
    }
    println!("4. El servicio sigue {} s en marcha para tokio-console; cada 3 s una petición bloquea", o.consola);
    let inicio = Instant::now();
    let mut id = 10_000;
    while inicio.elapsed() < Duration::from_secs(o.consola) {
        rt.spawn(peticion_servicio(id, id % 1500 == 0, o.bloqueo()));
        id += 1;
        thread::sleep(Duration::from_millis(2));
    }
}
