//! Diez mil conexiones abiertas a la vez contra dos servidores de eco: uno
//! con una tarea de Tokio por conexión y otro con un hilo por conexión.
//! Cuenta los hilos y la memoria residente de cada servidor.
//!
//! ```text
//! cargo run -p leccion-03 --release                  # 10 000 conexiones
//! cargo run -p leccion-03 --release -- --conexiones 5000
//! cargo run -p leccion-03 -- --rapido                # 200 conexiones, lo que usan las pruebas
//! ```
//!
//! Cada servidor es este mismo programa, lanzado como proceso hijo con
//! `--servidor tokio` o `--servidor hilos`: así la memoria y los hilos que se
//! miden son solo los del servidor. El hijo escribe su puerto, contesta
//! `estado` con sus cifras y termina cuando se cierra su entrada estándar.

use std::io::{BufRead, Write};
use std::process::{ExitCode, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::process::{ChildStdin, ChildStdout};
use tokio::task::JoinSet;

use medidas::{campo_de_proc, entero, hilos_del_proceso, numero};

use leccion_03::servidores::{Contadores, con_hilos, con_tokio};
use leccion_03::{Opciones, Tipo, conexiones_posibles, sube_limite_de_archivos, tope_de_hilos};

/// Lo más que puede durar la medida de un servidor, de principio a fin.
const LIMITE_POR_SERVIDOR: Duration = Duration::from_secs(120);
/// Conexiones que se abren a la vez: menos que la cola de espera del
/// `listen` de la biblioteca estándar, para que ninguna se quede esperando
/// a que el kernel reintente.
const LOTE: usize = 100;

fn main() -> ExitCode {
    let opciones: Opciones = opciones::de_la_linea_de_ordenes();
    match opciones.servidor {
        Some(tipo) => servidor(tipo, opciones.max_hilos),
        None => cliente(opciones.conexiones, opciones.max_hilos),
    }
}

// ---------------------------------------------------------------------------
// El servidor (proceso hijo)
// ---------------------------------------------------------------------------

fn servidor(tipo: Tipo, max_hilos: usize) -> ExitCode {
    let contadores = Arc::new(Contadores::default());
    // El runtime vive hasta que el proceso termina.
    let mut runtime = None;
    let puerto = match tipo {
        Tipo::Tokio => {
            // Un runtime multihilo normal: tantos hilos trabajadores como núcleos.
            let rt = tokio::runtime::Runtime::new().expect("no se pudo crear el runtime");
            let escucha =
                rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).expect("no se pudo abrir el puerto");
            let puerto = escucha.local_addr().unwrap().port();
            rt.spawn(con_tokio::sirve(escucha, contadores.clone()));
            runtime = Some(rt);
            puerto
        }
        Tipo::Hilos => {
            let escucha = std::net::TcpListener::bind("127.0.0.1:0").expect("no se pudo abrir el puerto");
            let puerto = escucha.local_addr().unwrap().port();
            let c = contadores.clone();
            std::thread::Builder::new()
                .name("aceptador".into())
                .spawn(move || con_hilos::sirve(escucha, max_hilos, c))
                .expect("no se pudo crear el hilo que acepta");
            puerto
        }
    };
    let mut salida = std::io::stdout().lock();
    let _ = writeln!(salida, "puerto {puerto}");
    let _ = salida.flush();
    for linea in std::io::stdin().lock().lines() {
        let Ok(linea) = linea else { break };
        if linea.trim() == "estado" {
            let (trabajadores, tareas) = match &runtime {
                Some(rt) => {
                    let m = rt.metrics();
                    (m.num_workers().to_string(), m.num_alive_tasks().to_string())
                }
                None => ("-".into(), "-".into()),
            };
            let cifra = |v: Option<u64>| v.map_or("?".to_string(), |v| v.to_string());
            let _ = writeln!(
                salida,
                "estado hilos={} rss={} vmsize={} abiertas={} rechazadas={} trabajadores={trabajadores} tareas={tareas}",
                cifra(hilos_del_proceso().map(|n| n as u64)),
                cifra(campo_de_proc("VmRSS")),
                cifra(campo_de_proc("VmSize")),
                contadores.abiertas.load(std::sync::atomic::Ordering::Relaxed),
                contadores.rechazadas.load(std::sync::atomic::Ordering::Relaxed),
            );
            let _ = salida.flush();
        }
    }
    // La entrada se cerró: el cliente ha terminado. Salimos sin esperar a
    // las conexiones, que el sistema cierra con el proceso.
    std::process::exit(0);
}

// ---------------------------------------------------------------------------
// El cliente (el proceso que ejecutas)
// ---------------------------------------------------------------------------

/// Lo que el servidor contesta a `estado`.
#[derive(Debug, Clone, Default)]
struct Estado {
    hilos: Option<u64>,
    rss: Option<u64>,
    vmsize: Option<u64>,
    abiertas: u64,
    rechazadas: u64,
    trabajadores: Option<u64>,
    tareas: Option<u64>,
}

impl Estado {
    fn lee(linea: &str) -> Option<Estado> {
        let mut e = Estado::default();
        let mut campos = linea.split_whitespace();
        if campos.next()? != "estado" {
            return None;
        }
        for campo in campos {
            let (clave, valor) = campo.split_once('=')?;
            let v = valor.parse::<u64>().ok();
            match clave {
                "hilos" => e.hilos = v,
                "rss" => e.rss = v,
                "vmsize" => e.vmsize = v,
                "abiertas" => e.abiertas = v.unwrap_or(0),
                "rechazadas" => e.rechazadas = v.unwrap_or(0),
                "trabajadores" => e.trabajadores = v,
                "tareas" => e.tareas = v,
                _ => {}
            }
        }
        Some(e)
    }
}

/// El resultado de medir un servidor.
struct Medida {
    pedidas: usize,
    sostenidas: usize,
    tardado: Duration,
    reposo: Estado,
    cargado: Estado,
    fallo: Option<String>,
}

fn cliente(pedidas: usize, max_hilos: usize) -> ExitCode {
    println!("Conexiones pedidas: {}, todas a 127.0.0.1 (loopback).", entero(pedidas as u64));
    let conexiones = match sube_limite_de_archivos() {
        Some(l) => {
            let subido = if l.ahora > l.antes { format!(" (subido desde {})", entero(l.antes)) } else { String::new() };
            println!(
                "Límite de archivos abiertos (RLIMIT_NOFILE): blando {}{subido}, duro {}.",
                entero(l.ahora),
                entero(l.duro)
            );
            let caben = conexiones_posibles(pedidas, l.ahora);
            if caben < pedidas {
                println!(
                    "  Cada conexión gasta un descriptor en el cliente y otro en el servidor. Con {} \
                     descriptores por proceso caben {caben}: uso {caben} en lugar de {}. \
                     Para más, sube el límite duro (ulimit -Hn, o /etc/security/limits.conf).",
                    entero(l.ahora),
                    entero(pedidas as u64),
                    caben = entero(caben as u64),
                );
            }
            caben
        }
        None => {
            println!(
                "No sé leer el límite de archivos abiertos en este sistema; uso {} conexiones.",
                entero(pedidas as u64)
            );
            pedidas
        }
    };
    if conexiones == 0 {
        eprintln!("error: el límite de archivos abiertos no deja abrir ninguna conexión");
        return ExitCode::FAILURE;
    }
    let (hilos, motivo) = tope_de_hilos(conexiones, max_hilos);
    if hilos < conexiones {
        println!(
            "El servidor de un hilo por conexión se mide con {} conexiones, no {}; lo limita {motivo}.",
            entero(hilos as u64),
            entero(conexiones as u64)
        );
    }
    if hilos_del_proceso().is_none() {
        println!("Este sistema no tiene /proc: no puedo contar hilos ni memoria, solo conexiones.");
    }

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("no se pudo crear el runtime del cliente");
    let mut medidas = Vec::new();
    for (tipo, n) in [(Tipo::Tokio, conexiones), (Tipo::Hilos, hilos)] {
        println!();
        println!("== {} ==", titulo(tipo));
        let medida = runtime.block_on(async {
            match tokio::time::timeout(LIMITE_POR_SERVIDOR, mide(tipo, n, hilos)).await {
                Ok(resultado) => resultado,
                Err(_) => Err(format!("la medida pasó de {} s; la corto", LIMITE_POR_SERVIDOR.as_secs())),
            }
        });
        match medida {
            Ok(m) => {
                informe(tipo, &m);
                medidas.push((tipo, m));
            }
            Err(e) => println!("  No se pudo medir: {e}"),
        }
    }
    println!();
    resumen(&medidas);
    ExitCode::SUCCESS
}

fn titulo(tipo: Tipo) -> &'static str {
    match tipo {
        Tipo::Tokio => "Servidor con Tokio: una tarea por conexión",
        Tipo::Hilos => "Servidor con un hilo por conexión",
    }
}

/// Lanza el servidor, lo mide en reposo, le abre `n` conexiones (un mensaje
/// de ida y vuelta en cada una), lo mide con todas abiertas y lo cierra.
async fn mide(tipo: Tipo, n: usize, max_hilos: usize) -> Result<Medida, String> {
    let ejecutable = std::env::current_exe().map_err(|e| format!("no encuentro el ejecutable: {e}"))?;
    let mut hijo = tokio::process::Command::new(ejecutable)
        .args(["--servidor", tipo.nombre(), "--max-hilos", &max_hilos.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("no pude lanzar el servidor: {e}"))?;
    let mut entrada = hijo.stdin.take().expect("stdin con tubería");
    let mut salida = BufReader::new(hijo.stdout.take().expect("stdout con tubería")).lines();

    let primera = salida.next_line().await.ok().flatten().unwrap_or_default();
    let puerto: u16 = primera
        .strip_prefix("puerto ")
        .and_then(|p| p.parse().ok())
        .ok_or_else(|| format!("el servidor no dijo su puerto (dijo «{primera}»)"))?;
    let reposo = pide_estado(&mut entrada, &mut salida).await?;

    // ANCHOR: abre
    let inicio = Instant::now();
    let mut abiertas: Vec<TcpStream> = Vec::with_capacity(n);
    let mut fallo = None;
    'lotes: for primero in (0..n).step_by(LOTE) {
        let mut lote = JoinSet::new();
        for i in primero..(primero + LOTE).min(n) {
            lote.spawn(conecta_y_saluda(puerto, i));
        }
        while let Some(resultado) = lote.join_next().await {
            match resultado.expect("la tarea del cliente no debería fallar") {
                Ok(conexion) => abiertas.push(conexion), // sigue abierta
                Err(e) => {
                    fallo = Some(e);
                    break 'lotes;
                }
            }
        }
    }
    let tardado = inicio.elapsed();
    // ANCHOR_END: abre

    let cargado = pide_estado(&mut entrada, &mut salida).await?;
    let sostenidas = abiertas.len();
    drop(entrada); // el servidor ve el fin de su entrada y termina
    let _ = tokio::time::timeout(Duration::from_secs(10), hijo.wait()).await;
    drop(abiertas);
    Ok(Medida { pedidas: n, sostenidas, tardado, reposo, cargado, fallo })
}

/// Abre la conexión `i`, manda una línea y espera a que vuelva entera.
async fn conecta_y_saluda(puerto: u16, i: usize) -> Result<TcpStream, String> {
    let mut conexion = TcpStream::connect(("127.0.0.1", puerto))
        .await
        .map_err(|e| format!("la conexión {i} no se pudo abrir: {e}"))?;
    let mensaje = format!("hola {i}\n");
    conexion.write_all(mensaje.as_bytes()).await.map_err(|e| format!("conexión {i}: {e}"))?;
    let mut eco = vec![0u8; mensaje.len()];
    conexion
        .read_exact(&mut eco)
        .await
        .map_err(|e| format!("la conexión {i} no recibió su eco ({e}); ¿el servidor la cerró?"))?;
    if eco != mensaje.as_bytes() {
        return Err(format!("la conexión {i} recibió un eco distinto"));
    }
    Ok(conexion)
}

async fn pide_estado(
    entrada: &mut ChildStdin,
    salida: &mut tokio::io::Lines<BufReader<ChildStdout>>,
) -> Result<Estado, String> {
    entrada.write_all(b"estado\n").await.map_err(|e| format!("el servidor no escucha: {e}"))?;
    entrada.flush().await.map_err(|e| format!("el servidor no escucha: {e}"))?;
    let linea = salida.next_line().await.ok().flatten().unwrap_or_default();
    Estado::lee(&linea).ok_or_else(|| format!("el servidor contestó algo raro: «{linea}»"))
}

fn mib(bytes: u64) -> String {
    format!("{} MiB", numero(bytes as f64 / (1024.0 * 1024.0), 1))
}

fn cifra(v: Option<u64>) -> String {
    v.map_or("no disponible".to_string(), entero)
}

fn por_conexion(m: &Medida) -> Option<f64> {
    let (a, b) = (m.reposo.rss?, m.cargado.rss?);
    (m.sostenidas > 0).then(|| b.saturating_sub(a) as f64 / 1024.0 / m.sostenidas as f64)
}

fn informe(tipo: Tipo, m: &Medida) {
    println!(
        "  Conexiones abiertas a la vez, con un mensaje de ida y vuelta en cada una: {} de {} ({} s)",
        entero(m.sostenidas as u64),
        entero(m.pedidas as u64),
        numero(m.tardado.as_secs_f64(), 2)
    );
    if let Some(fallo) = &m.fallo {
        println!("  Se paró antes de tiempo: {fallo}");
    }
    println!("  El servidor dice que tiene abiertas: {}", entero(m.cargado.abiertas));
    if m.cargado.rechazadas > 0 {
        println!("  El servidor rechazó: {} (tope de hilos o sin hilos libres)", entero(m.cargado.rechazadas));
    }
    let hilos = cifra(m.cargado.hilos);
    match tipo {
        Tipo::Tokio => println!(
            "  Hilos del proceso (/proc/self/task): {hilos}; hilos trabajadores de Tokio (métricas): {}; \
             tareas vivas: {}",
            cifra(m.cargado.trabajadores),
            cifra(m.cargado.tareas)
        ),
        Tipo::Hilos => println!("  Hilos del proceso (/proc/self/task): {hilos}"),
    }
    match (m.reposo.rss, m.cargado.rss, por_conexion(m)) {
        (Some(a), Some(b), Some(k)) => println!(
            "  Memoria residente (VmRSS): {} en reposo, {} con las conexiones: {} KiB por conexión",
            mib(a),
            mib(b),
            numero(k, 1)
        ),
        _ => println!("  Memoria residente (VmRSS): no disponible (este sistema no tiene /proc)"),
    }
    if let (Some(a), Some(b)) = (m.reposo.vmsize, m.cargado.vmsize) {
        println!("  Memoria virtual reservada (VmSize): {} en reposo, {} con las conexiones", mib(a), mib(b));
    }
}

fn resumen(medidas: &[(Tipo, Medida)]) {
    println!("Resumen (el servidor, con todas sus conexiones abiertas):");
    println!(
        "{:<24} {:>11} {:>8} {:>12} {:>14} {:>14}",
        "servidor", "conexiones", "hilos", "VmRSS", "por conexión", "VmSize"
    );
    for (tipo, m) in medidas {
        let nombre = match tipo {
            Tipo::Tokio => "Tokio",
            Tipo::Hilos => "un hilo por conexión",
        };
        println!(
            "{:<24} {:>11} {:>8} {:>12} {:>14} {:>14}",
            nombre,
            entero(m.sostenidas as u64),
            m.cargado.hilos.map_or("?".into(), entero),
            m.cargado.rss.map_or("?".into(), mib),
            por_conexion(m).map_or("?".into(), |k| format!("{} KiB", numero(k, 1))),
            m.cargado.vmsize.map_or("?".into(), mib),
        );
    }
}
