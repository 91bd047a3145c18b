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
use medidas::mediana_y_extremos;
use tokio::sync::Notify;
use tokio::task::JoinSet;
use tracing::Dispatch;
use tracing_subscriber::layer::SubscriberExt;

fn main() {
    let opciones: Opciones = opciones::de_la_linea_de_ordenes();
    let consola = instala_consola();
    parte_tramos();
    let rt = parte_metricas(&opciones);
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
        handle.spawn(peticion_servicio(id, id == 25, o.bloqueo()));
        id += 1;
        thread::sleep(Duration::from_millis(2));
    }
    thread::sleep(Duration::from_millis(20));
    parar.store(true, Ordering::SeqCst);
    let muestras = muestreador.join().unwrap();

    println!("   t (ms) | ocupado +ms (t0, t1) | aparca/despierta (t0, t1) | vivas | cola global");
    for par in muestras.windows(2) {
        let (a, b) = (&par[0], &par[1]);
        let delta = |w: usize| (b.ocupado[w] - a.ocupado[w]).as_secs_f64() * 1000.0;
        println!(
            "   {:>6.0} | {:>8.1} {:>8.1}    | {:>8} {:>8}         | {:>5} | {:>5}",
            b.instante.as_secs_f64() * 1000.0,
            delta(0),
            delta(1),
            b.aparca[0],
            b.aparca[1],
            b.tareas_vivas,
            b.cola_global
        );
    }
    println!("   peticiones lanzadas: {id}");
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
        "   salto mayor del tiempo ocupado: {:.1} ms en una sola muestra (trabajador {}, t = {:.0} ms)",
        salto.0,
        salto.1,
        salto.2.as_secs_f64() * 1000.0
    );
    match tramo_mas_quieto(&muestras) {
        Some((w, desde, hasta)) => println!(
            "   lectura del contador: el trabajador {w} estuvo despierto sin aparcarse ni publicar nada de {:.0} a {:.0} ms: \
             {:.0} ms quieto",
            desde.as_secs_f64() * 1000.0,
            hasta.as_secs_f64() * 1000.0,
            (hasta - desde).as_secs_f64() * 1000.0
        ),
        None => println!("   lectura del contador: ningún trabajador se quedó quieto y despierto entre dos muestras"),
    }
    println!("   tareas vivas al final: {} (una es la que espera al inventario)", handle.metrics().num_alive_tasks());
    println!();
    rt
}

/// Una variante de la medida de coste: su nombre, su suscriptor y si instrumenta.
struct Variante {
    nombre: &'static str,
    despacho: Dispatch,
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

fn una_ronda(rt: &tokio::runtime::Runtime, v: &Variante, peticiones: u32) -> Duration {
    tracing::dispatcher::with_default(&v.despacho, || {
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
        o.peticiones(),
        SONDEOS + 1,
        o.rondas()
    );
    let nulo = || Dispatch::new(tracing::subscriber::NoSubscriber::default());
    let fmt = tracing_subscriber::fmt().with_writer(std::io::sink).finish();
    let mut variantes = vec![
        Variante { nombre: "sin tracing", despacho: nulo(), instrumentada: false },
        Variante { nombre: "tracing, suscriptor nulo", despacho: nulo(), instrumentada: true },
        Variante { nombre: "tracing, fmt a io::sink", despacho: Dispatch::new(fmt), instrumentada: true },
    ];
    if let Some(consola) = consola {
        variantes.push(Variante { nombre: "tracing, consola", despacho: consola.clone(), instrumentada: true });
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
    let sondeos = (o.peticiones() * (SONDEOS + 1)) as f64;
    println!("   variante                  | ns/petición: mediana (mín–máx)  | ns/sondeo: mediana (mín–máx)");
    for (v, t) in variantes.iter().zip(&tiempos) {
        let por_peticion: Vec<f64> = t.iter().map(|d| d.as_nanos() as f64 / o.peticiones() as f64).collect();
        let por_sondeo: Vec<f64> = t.iter().map(|d| d.as_nanos() as f64 / sondeos).collect();
        let (m, a, b) = mediana_y_extremos(&por_peticion).unwrap_or_default();
        let (ms, as_, bs) = mediana_y_extremos(&por_sondeo).unwrap_or_default();
        println!("   {:<25} | {m:>7.0} ({a:>5.0}–{b:>5.0})          | {ms:>5.0} ({as_:>4.0}–{bs:>4.0})", v.nombre);
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
