//! Una tarea frente a un hilo, en las dos cosas que más importan: cuánto
//! cuesta pasar de una a otra y cuánta memoria residente ocupa cada una
//! mientras espera.
//!
//! ```text
//! cargo run -p leccion-06 --release --bin tarea-frente-a-hilo
//! cargo run -p leccion-06 --bin tarea-frente-a-hilo -- --rapido   # lo que usan las pruebas
//! ```
//!
//! En modo completo guarda la memoria en `resultados/tarea-hilo.csv`, que
//! `grafica-tarea-hilo` dibuja para el libro.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

use leccion_06::csv_tarea_hilo;
use medidas::{campo_de_proc, entero, numero};
use opciones::clap::{self, Parser};

/// Las opciones de `tarea-frente-a-hilo`.
#[derive(Parser)]
#[command(about = "Una tarea frente a un hilo: el cambio de una a otra y la memoria de cada una.")]
struct Opciones {
    /// Menos vueltas y menos tamaños, sin CSV (lo que usan las pruebas)
    #[arg(long)]
    rapido: bool,
    /// Uso interno: medir solo la memoria de N hilos en este proceso, recién arrancado
    #[arg(long, value_name = "N", hide = true, value_parser = opciones::numero::<usize>)]
    solo_hilos: Option<usize>,
    /// Uso interno: lo mismo con N tareas
    #[arg(long, value_name = "N", hide = true, value_parser = opciones::numero::<usize>, conflicts_with = "solo_hilos")]
    solo_tareas: Option<usize>,
}

/// Mide en un proceso nuevo, para que la memoria que dejó una medida (las
/// arenas del asignador, las páginas ya tocadas) no se cuente en la
/// siguiente. Devuelve los bytes que imprime el hijo.
fn en_otro_proceso(tipo: &str, n: usize) -> u64 {
    let exe = std::env::current_exe().expect("la ruta de este programa");
    let salida = std::process::Command::new(exe)
        .args([format!("--solo-{tipo}"), n.to_string()])
        .output()
        .expect("no arranca la medida");
    String::from_utf8_lossy(&salida.stdout).trim().parse().unwrap_or(0)
}

/// Fija el hilo actual a la primera CPU que el proceso puede usar, para que
/// dos hilos que se pasan el turno compartan núcleo: así cada paso es un
/// cambio de contexto de verdad y no un aviso a otro núcleo.
#[cfg(target_os = "linux")]
fn fija_a_una_cpu() -> bool {
    // SAFETY: cpu_set_t es una máscara de bits; la rellenan y la leen las
    // llamadas de libc con el tamaño correcto.
    unsafe {
        let mut mascara: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut mascara) != 0 {
            return false;
        }
        let Some(cpu) = (0..libc::CPU_SETSIZE as usize).find(|&c| libc::CPU_ISSET(c, &mascara)) else {
            return false;
        };
        let mut una: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut una);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &una) == 0
    }
}

#[cfg(not(target_os = "linux"))]
fn fija_a_una_cpu() -> bool {
    false
}

// ANCHOR: hilos
/// Dos hilos en el mismo núcleo se pasan un número `vueltas` veces por dos
/// canales de cita (capacidad 0). Cada paso duerme a uno y despierta al
/// otro: un cambio de contexto del sistema. Devuelve el tiempo por cambio.
fn cambio_entre_hilos(vueltas: u32) -> (Duration, bool) {
    let (ida_tx, ida_rx) = mpsc::sync_channel::<u32>(0);
    let (vuelta_tx, vuelta_rx) = mpsc::sync_channel::<u32>(0);
    let eco = std::thread::spawn(move || {
        let fijado = fija_a_una_cpu();
        for v in ida_rx {
            if vuelta_tx.send(v).is_err() {
                break;
            }
        }
        fijado
    });
    let fijado = fija_a_una_cpu();
    let inicio = Instant::now();
    for i in 0..vueltas {
        ida_tx.send(i).expect("el eco sigue vivo");
        vuelta_rx.recv().expect("el eco responde");
    }
    let tiempo = inicio.elapsed();
    drop(ida_tx);
    let fijado_eco = eco.join().expect("el eco no falla");
    (tiempo / (2 * vueltas), fijado && fijado_eco)
}
// ANCHOR_END: hilos

// ANCHOR: tareas
/// Lo mismo con dos tareas de Tokio en un runtime de un solo hilo: cada paso
/// deja pendiente a una y el ejecutor sondea a la otra, sin entrar en el
/// kernel. Devuelve el tiempo por cambio.
fn cambio_entre_tareas(vueltas: u32) -> Duration {
    let runtime = tokio::runtime::Builder::new_current_thread().build().expect("runtime");
    runtime.block_on(async {
        let (ida_tx, mut ida_rx) = tokio::sync::mpsc::channel::<u32>(1);
        let (vuelta_tx, mut vuelta_rx) = tokio::sync::mpsc::channel::<u32>(1);
        let eco = tokio::spawn(async move {
            while let Some(v) = ida_rx.recv().await {
                if vuelta_tx.send(v).await.is_err() {
                    break;
                }
            }
        });
        let inicio = Instant::now();
        for i in 0..vueltas {
            ida_tx.send(i).await.expect("el eco sigue vivo");
            vuelta_rx.recv().await.expect("el eco responde");
        }
        let tiempo = inicio.elapsed();
        drop(ida_tx);
        eco.await.expect("el eco no falla");
        tiempo / (2 * vueltas)
    })
}
// ANCHOR_END: tareas

fn rss() -> u64 {
    campo_de_proc("VmRSS").unwrap_or(0)
}

/// Memoria residente que añaden `n` hilos dormidos (pila por defecto), en bytes.
fn memoria_de_hilos(n: usize) -> u64 {
    let puerta = Arc::new((Mutex::new(false), Condvar::new()));
    let listos = Arc::new(AtomicUsize::new(0));
    let antes = rss();
    let hilos: Vec<_> = (0..n)
        .map(|_| {
            let (puerta, listos) = (puerta.clone(), listos.clone());
            std::thread::spawn(move || {
                let (abierta, aviso) = &*puerta;
                let mut abierta = abierta.lock().unwrap();
                listos.fetch_add(1, Ordering::SeqCst);
                while !*abierta {
                    abierta = aviso.wait(abierta).unwrap();
                }
            })
        })
        .collect();
    while listos.load(Ordering::SeqCst) < n {
        std::thread::sleep(Duration::from_millis(1));
    }
    let despues = rss();
    *puerta.0.lock().unwrap() = true;
    puerta.1.notify_all();
    for h in hilos {
        h.join().unwrap();
    }
    despues.saturating_sub(antes)
}

/// Memoria residente que añaden `n` tareas dormidas, con el runtime ya
/// arrancado (un `sleep` de una hora
/// que nunca acaba: se cancelan al final), en bytes.
fn memoria_de_tareas(runtime: &tokio::runtime::Runtime, n: usize) -> u64 {
    runtime.block_on(async {
        let antes = rss();
        let tareas: Vec<_> = (0..n).map(|_| tokio::spawn(tokio::time::sleep(Duration::from_secs(3600)))).collect();
        // Que cada tarea se sondee una vez y registre su temporizador.
        tokio::time::sleep(Duration::from_millis(50)).await;
        let despues = rss();
        for t in &tareas {
            t.abort();
        }
        for t in tareas {
            let _ = t.await;
        }
        despues.saturating_sub(antes)
    })
}

fn main() {
    let opciones: Opciones = opciones::de_la_linea_de_ordenes();
    if let Some(n) = opciones.solo_hilos {
        println!("{}", memoria_de_hilos(n));
        return;
    }
    if let Some(n) = opciones.solo_tareas {
        let runtime = tokio::runtime::Runtime::new().expect("runtime");
        println!("{}", memoria_de_tareas(&runtime, n));
        return;
    }
    let vueltas = if opciones.rapido { 2_000 } else { 200_000 };
    let tamanos: &[usize] = if opciones.rapido { &[100, 200] } else { &[1_000, 2_500, 5_000, 10_000] };

    // Un calentamiento de cada uno, y luego la medida.
    cambio_entre_hilos(vueltas / 10);
    cambio_entre_tareas(vueltas / 10);
    let (hilo, fijado) = cambio_entre_hilos(vueltas);
    let tarea = cambio_entre_tareas(vueltas);
    let nota = if fijado { "los dos hilos en el mismo núcleo" } else { "sin fijar los hilos a un núcleo" };
    println!("Pasarse el turno {} veces de ida y vuelta:", entero(vueltas as u64));
    println!("  cambio entre hilos:  {:>8} ns por cambio ({nota})", entero(hilo.as_nanos() as u64));
    println!("  cambio entre tareas: {:>8} ns por cambio (runtime de un hilo)", entero(tarea.as_nanos() as u64));
    println!(
        "  un cambio entre hilos cuesta {} veces uno entre tareas",
        numero(hilo.as_secs_f64() / tarea.as_secs_f64(), 0)
    );
    println!();

    println!("Memoria residente (VmRSS) que añaden N hilos o N tareas dormidas:");
    println!("{:>8} {:>14} {:>14} {:>10}", "N", "hilos (KiB/u)", "tareas (KiB/u)", "razón");
    let mut csv = String::from("tipo,n,kib_total\n");
    let mut disponible = true;
    for &n in tamanos {
        let h = en_otro_proceso("hilos", n);
        let t = en_otro_proceso("tareas", n);
        if h == 0 && t == 0 {
            disponible = false;
        }
        let (kh, kt) = (h as f64 / 1024.0, t as f64 / 1024.0);
        csv.push_str(&format!("hilos,{n},{kh:.1}\ntareas,{n},{kt:.1}\n"));
        let razon = if t > 0 { numero(h as f64 / t as f64, 0) } else { "-".into() };
        println!(
            "{:>8} {:>14} {:>14} {razon:>10}",
            entero(n as u64),
            numero(kh / n as f64, 2),
            numero(kt / n as f64, 2)
        );
    }
    if !disponible {
        println!("(este sistema no tiene /proc/self/status: no hay memoria residente que leer)");
    }
    if !opciones.rapido && disponible {
        let ruta = csv_tarea_hilo();
        let _ = std::fs::create_dir_all(ruta.parent().unwrap());
        match std::fs::write(&ruta, csv) {
            Ok(()) => println!("\nMemoria por N escrita en {}.", ruta.display()),
            Err(e) => {
                eprintln!("error: no puedo escribir {}: {e}", ruta.display());
                std::process::exit(1);
            }
        }
    }
}
