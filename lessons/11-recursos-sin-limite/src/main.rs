//! Un pico de tráfico contra tres formas de recibirlo: memoria residente a lo
//! largo del tiempo, peticiones aceptadas, rechazadas y atendidas.
//!
//! ```text
//! cargo run -p leccion-11 --release             # unos 12 s; escribe resultados/memoria.csv
//! cargo run -p leccion-11 --bin grafica-memoria         # dibuja book/graficas/memoria.svg
//! cargo run -p leccion-11 -- --rapido           # lo que usan las pruebas (no escribe el CSV)
//! ```
//!
//! Cada escenario corre en un proceso hijo (el mismo programa con
//! `--escenario NOMBRE`), para que la memoria de uno no se mezcle con la del
//! siguiente. Cada hijo se detiene solo: al acabar su tiempo o en cuanto una
//! muestra de su memoria residente pasa del tope.

use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{Semaphore, mpsc};

use medidas::{campo_de_proc, entero, numero, percentil};

use leccion_11::{CABECERA_CSV, Escenario, Fila, MIB, Opciones, Parametros, csv_por_defecto};

fn main() {
    let opciones: Opciones = opciones::de_la_linea_de_ordenes();
    if campo_de_proc("VmRSS").is_none() {
        println!(
            "Este sistema no tiene /proc/self/status, así que no puedo medir la memoria residente. \
             Sin esa medida el escenario (a) no tendría freno: no lo ejecuto. Prueba en Linux."
        );
        return;
    }
    let parametros = if opciones.rapido { Parametros::rapidos() } else { Parametros::normales() };
    match opciones.escenario {
        Some(escenario) => hijo(escenario, &parametros),
        None => padre(&opciones, &parametros),
    }
}

// ---------------------------------------------------------------------------
// El proceso hijo: un escenario.
// ---------------------------------------------------------------------------

/// Lo que cuentan el generador, las tareas y el medidor.
#[derive(Default)]
struct Cuentas {
    aceptadas: AtomicU64,
    rechazadas: AtomicU64,
    atendidas: AtomicU64,
    /// Latencia de cada petición atendida, en microsegundos: desde que llegó
    /// (según el horario del tráfico) hasta que terminó.
    latencias: Mutex<Vec<u32>>,
    parar: AtomicBool,
}

/// Una petición: cuándo llegó y su cuerpo, que ocupa memoria hasta que se
/// atiende.
struct Peticion {
    llegada: Duration,
    cuerpo: Vec<u8>,
}

/// Lee el cuerpo «de la red»: lo llena, así que sus páginas son residentes.
fn recibe(i: u64, p: &Parametros) -> Peticion {
    Peticion { llegada: p.llegada_de(i), cuerpo: vec![(i % 251) as u8 + 1; p.cuerpo] }
}

/// Atiende una petición: espera una de las conexiones a la base de datos y
/// la usa durante `p.servicio`.
async fn atiende(peticion: Peticion, bd: Arc<Semaphore>, p: Arc<Parametros>, inicio: Instant, c: Arc<Cuentas>) {
    let _conexion = bd.acquire().await.expect("el semáforo de la base de datos no se cierra");
    tokio::time::sleep(p.servicio).await;
    std::hint::black_box(&peticion.cuerpo);
    let latencia = inicio.elapsed().saturating_sub(peticion.llegada);
    c.latencias.lock().unwrap().push(latencia.as_micros().min(u128::from(u32::MAX)) as u32);
    c.atendidas.fetch_add(1, Ordering::Relaxed);
}

/// El generador de tráfico: cada milisegundo mira cuántas peticiones han
/// llegado según el horario y las recibe de la forma que dice `escenario`.
async fn genera(escenario: Escenario, p: Arc<Parametros>, inicio: Instant, c: Arc<Cuentas>) {
    let bd = Arc::new(Semaphore::new(p.conexiones));
    let limite = Arc::new(Semaphore::new(p.limite));
    // Solo el escenario (c) usa la cola; sus trabajadores la vacían.
    let (tx, rx) = mpsc::channel::<Peticion>(p.cola);
    if escenario == Escenario::ColaAcotada {
        let rx = Arc::new(tokio::sync::Mutex::new(rx));
        for _ in 0..p.trabajadores {
            let (rx, bd, p, c) = (rx.clone(), bd.clone(), p.clone(), c.clone());
            tokio::spawn(async move {
                loop {
                    let siguiente = rx.lock().await.recv().await;
                    let Some(peticion) = siguiente else { break };
                    atiende(peticion, bd.clone(), p.clone(), inicio, c.clone()).await;
                }
            });
        }
    }
    let mut reloj = tokio::time::interval(Duration::from_millis(1));
    reloj.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut siguiente: u64 = 0;
    loop {
        reloj.tick().await;
        let han_llegado = p.llegadas_hasta(inicio.elapsed());
        while siguiente < han_llegado {
            if c.parar.load(Ordering::Relaxed) {
                return;
            }
            let i = siguiente;
            siguiente += 1;
            match escenario {
                // ANCHOR: sin_limite
                Escenario::SinLimite => {
                    let peticion = recibe(i, &p);
                    c.aceptadas.fetch_add(1, Ordering::Relaxed);
                    tokio::spawn(atiende(peticion, bd.clone(), p.clone(), inicio, c.clone()));
                }
                // ANCHOR_END: sin_limite
                // ANCHOR: semaforo
                Escenario::Semaforo => {
                    // Sin permiso no se lee la petición ni se lanza su tarea:
                    // mientras tanto, la petición espera fuera del proceso.
                    let permiso = limite.clone().acquire_owned().await.expect("no se cierra");
                    let peticion = recibe(i, &p);
                    c.aceptadas.fetch_add(1, Ordering::Relaxed);
                    let (bd, p, c) = (bd.clone(), p.clone(), c.clone());
                    tokio::spawn(async move {
                        atiende(peticion, bd, p, inicio, c).await;
                        drop(permiso); // el permiso vive lo que vive la tarea
                    });
                }
                // ANCHOR_END: semaforo
                // ANCHOR: cola_acotada
                // Primero el hueco en la cola; solo con hueco se lee la
                // petición. Sin él, se rechaza antes de leer su cuerpo.
                Escenario::ColaAcotada => match tx.try_reserve() {
                    Ok(hueco) => {
                        hueco.send(recibe(i, &p));
                        c.aceptadas.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(mpsc::error::TrySendError::Full(())) => {
                        // Un servidor HTTP respondería 503 y cerraría la
                        // conexión sin haber leído el cuerpo. Aquí se cuenta.
                        c.rechazadas.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(mpsc::error::TrySendError::Closed(())) => unreachable!("los trabajadores no se van"),
                },
                // ANCHOR_END: cola_acotada
            }
        }
    }
}

/// Un escenario entero, en este proceso. Imprime una línea `muestra,...`
/// por cada medida y una `fin,...` al acabar; el padre las lee.
fn hijo(escenario: Escenario, parametros: &Parametros) {
    let p = Arc::new(parametros.clone());
    let c = Arc::new(Cuentas::default());
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("no arranca el runtime");
    let metricas = runtime.handle().metrics();
    let inicio = Instant::now();

    // El medidor es un hilo del sistema, fuera del runtime: mide aunque el
    // runtime esté muy ocupado, y es quien decide parar.
    let medidor = {
        let (p, c) = (p.clone(), c.clone());
        std::thread::spawn(move || {
            let mut muestra = 0u32;
            let mut max_tareas = 0usize;
            loop {
                let t = inicio.elapsed();
                let rss = campo_de_proc("VmRSS").unwrap_or(0);
                let tareas = metricas.num_alive_tasks();
                max_tareas = max_tareas.max(tareas);
                println!(
                    "muestra,{},{:.1},{},{},{},{},{}",
                    t.as_millis(),
                    rss as f64 / MIB as f64,
                    c.aceptadas.load(Ordering::Relaxed),
                    c.rechazadas.load(Ordering::Relaxed),
                    c.atendidas.load(Ordering::Relaxed),
                    p.llegadas_hasta(t),
                    tareas
                );
                if rss >= p.tope_rss {
                    c.parar.store(true, Ordering::SeqCst);
                    return ("tope", t, max_tareas);
                }
                if t >= p.duracion {
                    c.parar.store(true, Ordering::SeqCst);
                    return ("tiempo", t, max_tareas);
                }
                muestra += 1;
                if let Some(falta) = (p.muestreo * muestra).checked_sub(inicio.elapsed()) {
                    std::thread::sleep(falta);
                }
            }
        })
    };

    runtime.block_on(async {
        let generador = tokio::spawn(genera(escenario, p.clone(), inicio, c.clone()));
        // El generador mira `parar` antes de cada petición y termina solo.
        generador.await.expect("el generador no falla");
    });
    let (motivo, fin, max_tareas) = medidor.join().expect("el medidor no falla");
    // Una foto de las cuentas con el generador ya parado (las tareas que
    // quedan aún pueden sumar atendidas, pero la foto no cambia). El
    // generador pudo recibir alguna petición más entre la última muestra y su
    // parada: esas también cuentan como llegadas.
    let aceptadas = c.aceptadas.load(Ordering::SeqCst);
    let rechazadas = c.rechazadas.load(Ordering::SeqCst);
    let mut latencias = std::mem::take(&mut *c.latencias.lock().unwrap());
    let atendidas = latencias.len();
    let llegadas = p.llegadas_hasta(fin).max(aceptadas + rechazadas);
    latencias.sort_unstable();
    let ms = |p: f64| percentil(&latencias, p).map_or(-1.0, |us| f64::from(us) / 1000.0);
    println!(
        "fin,{motivo},{},{:.1},{},{},{},{},{},{:.1},{:.1},{}",
        fin.as_millis(),
        campo_de_proc("VmHWM").unwrap_or(0) as f64 / MIB as f64,
        llegadas,
        aceptadas,
        rechazadas,
        atendidas,
        latencias.len(),
        ms(50.0),
        ms(99.0),
        max_tareas
    );
    // Las tareas que quedan (muchas, en el escenario (a)) se sueltan sin
    // esperarlas: el proceso termina aquí.
    runtime.shutdown_background();
}

// ---------------------------------------------------------------------------
// El proceso padre: lanza los tres hijos, imprime y escribe el CSV.
// ---------------------------------------------------------------------------

/// Una muestra tal como la imprime el hijo.
struct Muestra {
    ms: u64,
    rss_mib: f64,
    aceptadas: u64,
    rechazadas: u64,
    atendidas: u64,
    llegadas: u64,
    tareas: u64,
}

/// El final de un escenario tal como lo imprime el hijo.
struct Final {
    motivo: String,
    ms: u64,
    pico_mib: f64,
    llegadas: u64,
    aceptadas: u64,
    rechazadas: u64,
    atendidas: u64,
    p50_ms: f64,
    p99_ms: f64,
    max_tareas: u64,
}

fn lee_salida_del_hijo(texto: &str) -> Result<(Vec<Muestra>, Final), String> {
    let mut muestras = Vec::new();
    let mut fin = None;
    for linea in texto.lines() {
        let campos: Vec<&str> = linea.split(',').collect();
        let n = |i: usize| -> Result<u64, String> {
            campos.get(i).and_then(|c| c.parse().ok()).ok_or_else(|| format!("línea ilegible: «{linea}»"))
        };
        let f = |i: usize| -> Result<f64, String> {
            campos.get(i).and_then(|c| c.parse().ok()).ok_or_else(|| format!("línea ilegible: «{linea}»"))
        };
        match campos.first() {
            Some(&"muestra") => muestras.push(Muestra {
                ms: n(1)?,
                rss_mib: f(2)?,
                aceptadas: n(3)?,
                rechazadas: n(4)?,
                atendidas: n(5)?,
                llegadas: n(6)?,
                tareas: n(7)?,
            }),
            Some(&"fin") => {
                fin = Some(Final {
                    motivo: campos.get(1).unwrap_or(&"?").to_string(),
                    ms: n(2)?,
                    pico_mib: f(3)?,
                    llegadas: n(4)?,
                    aceptadas: n(5)?,
                    rechazadas: n(6)?,
                    atendidas: n(7)?,
                    p50_ms: f(9)?,
                    p99_ms: f(10)?,
                    max_tareas: n(11)?,
                })
            }
            _ => {}
        }
    }
    Ok((muestras, fin.ok_or("el escenario no dijo cómo terminó")?))
}

fn padre(opciones: &Opciones, p: &Parametros) {
    let nucleos = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "Máquina: {nucleos} núcleos, {} {}; runtime de Tokio con {nucleos} hilos trabajadores.",
        std::env::consts::OS,
        std::env::consts::ARCH
    );
    println!(
        "Tráfico: {} petición por ms; de {} a {} ms, un pico de {} por ms. Cada petición trae {} KiB \
         y necesita {} ms de una de las {} conexiones a la base de datos: el servicio atiende \
         {} por segundo.",
        entero(p.por_ms_normal),
        entero(p.pico_desde.as_millis() as u64),
        entero(p.pico_hasta.as_millis() as u64),
        entero(p.por_ms_pico),
        entero((p.cuerpo / 1024) as u64),
        p.servicio.as_millis(),
        entero(p.conexiones as u64),
        entero(p.capacidad_por_segundo())
    );
    println!(
        "(b) da {} permisos; (c) tiene una cola de {} y {} tareas que la vacían. Cada escenario se \
         detiene a los {} ms o cuando una muestra pasa de {} MiB residentes.",
        entero(p.limite as u64),
        entero(p.cola as u64),
        entero(p.trabajadores as u64),
        entero(p.duracion.as_millis() as u64),
        entero(p.tope_rss / MIB)
    );

    let ejecutable = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: no encuentro mi propio ejecutable: {e}");
            std::process::exit(1);
        }
    };
    let mut filas = Vec::new();
    let mut finales = Vec::new();
    for escenario in Escenario::TODOS {
        let mut orden = Command::new(&ejecutable);
        orden.args(["--escenario", escenario.nombre()]);
        if opciones.rapido {
            orden.arg("--rapido");
        }
        let salida = match orden.output() {
            Ok(s) if s.status.success() => s,
            Ok(s) => {
                eprintln!("error: el escenario {} falló:\n{}", escenario.nombre(), String::from_utf8_lossy(&s.stderr));
                std::process::exit(1);
            }
            Err(e) => {
                eprintln!("error: no pude lanzar el escenario {}: {e}", escenario.nombre());
                std::process::exit(1);
            }
        };
        let (muestras, fin) = match lee_salida_del_hijo(&String::from_utf8_lossy(&salida.stdout)) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        };
        println!();
        println!("{}", escenario.etiqueta());
        println!(
            "{:>7} {:>9} {:>10} {:>10} {:>10} {:>11} {:>9}",
            "ms", "RSS MiB", "llegadas", "aceptadas", "rechazadas", "atendidas", "tareas"
        );
        let mut siguiente = 0;
        for (k, m) in muestras.iter().enumerate() {
            if m.ms >= siguiente || k + 1 == muestras.len() {
                println!(
                    "{:>7} {:>9} {:>10} {:>10} {:>10} {:>11} {:>9}",
                    entero(m.ms),
                    numero(m.rss_mib, 1),
                    entero(m.llegadas),
                    entero(m.aceptadas),
                    entero(m.rechazadas),
                    entero(m.atendidas),
                    entero(m.tareas)
                );
                siguiente = (m.ms / p.imprimir_cada + 1) * p.imprimir_cada;
            }
            filas.push(Fila {
                escenario: escenario.nombre().to_string(),
                ms: m.ms,
                rss_mib: m.rss_mib,
                aceptadas: m.aceptadas,
                rechazadas: m.rechazadas,
            });
        }
        match fin.motivo.as_str() {
            "tope" => {
                println!(
                    "  se detuvo: la memoria residente pasó de {} MiB a los {} ms",
                    entero(p.tope_rss / MIB),
                    entero(fin.ms)
                )
            }
            _ => println!("  terminó su tiempo ({} ms)", entero(fin.ms)),
        }
        let inicial = muestras.first().map_or(0.0, |m| m.rss_mib);
        finales.push((escenario, fin, inicial));
    }

    println!();
    println!("Resumen (latencia: desde que llega la petición hasta que se atiende; solo las atendidas):");
    println!(
        "{:<28} {:>8} {:>9} {:>10} {:>9} {:>11} {:>9} {:>10} {:>10} {:>8}",
        "escenario",
        "llegadas",
        "aceptadas",
        "rechazadas",
        "atendidas",
        "sin atender",
        "pico MiB",
        "p50",
        "p99",
        "tareas"
    );
    for (escenario, f, _) in &finales {
        println!(
            "{:<28} {:>8} {:>9} {:>10} {:>9} {:>11} {:>9} {:>7} ms {:>7} ms {:>8}",
            escenario.etiqueta(),
            entero(f.llegadas),
            entero(f.aceptadas),
            entero(f.rechazadas),
            entero(f.atendidas),
            entero(f.llegadas.saturating_sub(f.rechazadas + f.atendidas)),
            numero(f.pico_mib, 1),
            numero(f.p50_ms, 1),
            numero(f.p99_ms, 1),
            entero(f.max_tareas)
        );
    }
    println!("(«sin atender»: aceptadas que aún esperaban dentro, o llegadas que esperaban fuera sin aceptar;");
    println!(" «tareas»: el máximo de tareas vivas que vio el medidor)");
    if let Some((_, f, inicial)) = finales.iter().find(|(e, _, _)| *e == Escenario::SinLimite)
        && f.max_tareas > 0
    {
        println!(
            "En (a), (pico - memoria al empezar) / tareas = ({} - {}) MiB / {} = {} KiB por \
             petición en espera; su cuerpo son {} KiB.",
            numero(f.pico_mib, 1),
            numero(*inicial, 1),
            entero(f.max_tareas),
            numero((f.pico_mib - inicial) * 1024.0 / f.max_tareas as f64, 1),
            entero((p.cuerpo / 1024) as u64)
        );
    }

    let ruta = match (&opciones.csv, opciones.rapido) {
        (Some(ruta), _) => Some(ruta.clone()),
        (None, false) => Some(csv_por_defecto()),
        (None, true) => None,
    };
    if let Some(ruta) = ruta {
        let mut texto = format!("{CABECERA_CSV}\n");
        for fila in &filas {
            texto.push_str(&fila.a_csv());
            texto.push('\n');
        }
        if let Some(carpeta) = ruta.parent() {
            let _ = std::fs::create_dir_all(carpeta);
        }
        match std::fs::write(&ruta, texto) {
            Ok(()) => println!("\nCSV escrito en {} ({} filas).", ruta.display(), filas.len()),
            Err(e) => {
                eprintln!("error: no pude escribir {}: {e}", ruta.display());
                std::process::exit(1);
            }
        }
    }
}
