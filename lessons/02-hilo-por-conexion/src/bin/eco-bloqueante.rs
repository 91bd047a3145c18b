//! Un servidor de eco con un hilo del sistema por conexión, en 127.0.0.1, y
//! un cliente de prueba que abre muchas conexiones a la vez.
//!
//! ```text
//! cargo run -p leccion-02 --release --bin eco-bloqueante                   # 1000 clientes
//! cargo run -p leccion-02 --release --bin eco-bloqueante -- --clientes 5000
//! cargo run -p leccion-02 --bin eco-bloqueante -- --rapido                 # 5 clientes y termina
//! ```
//!
//! El cliente está en el hilo principal: abre todas las conexiones, espera a
//! que el servidor tenga un hilo por cada una, y luego manda mensajes de 64
//! bytes por turnos, comprobando cada eco. Al final cierra las conexiones y
//! el servidor termina solo.

use std::net::TcpStream;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use leccion_02::{
    Foto, Limites, OpcionesEco, TOPE_DE_LA_LECCION, arranca_servidor, asegura_descriptores, kib, mib, ronda,
};
use medidas::{entero, numero};

fn main() {
    let opciones: OpcionesEco = opciones::de_la_linea_de_ordenes();
    // Cada cliente es un hilo en el servidor y dos descriptores (un extremo
    // de la conexión en cada lado).
    if let Err(mensaje) = Limites::de_esta_maquina().admite(opciones.clientes, TOPE_DE_LA_LECCION) {
        eprintln!("error: {mensaje}");
        std::process::exit(2);
    }
    if let Err(mensaje) = asegura_descriptores(2 * opciones.clientes + 64) {
        eprintln!("error: {mensaje}");
        std::process::exit(2);
    }
    if let Err(e) = demo(opciones.clientes as usize, opciones.mensajes as usize) {
        eprintln!("error: falló la conexión por 127.0.0.1: {e}");
        std::process::exit(1);
    }
}

fn demo(clientes: usize, mensajes: usize) -> std::io::Result<()> {
    let (direccion, contadores) = arranca_servidor(clientes)?;
    println!("Servidor de eco bloqueante en {direccion}: un hilo del sistema por conexión");

    let antes = Foto::ahora();
    let inicio = Instant::now();
    let mut conexiones = Vec::with_capacity(clientes);
    for i in 0..clientes {
        conexiones.push(TcpStream::connect(direccion)?);
        // No dejes que el servidor se quede muy atrás aceptando: la cola de
        // conexiones pendientes del kernel es finita.
        while i + 1 - contadores.aceptadas.load(Ordering::SeqCst).min(i + 1) > 64 {
            std::thread::yield_now();
        }
    }
    let limite = Instant::now() + Duration::from_secs(30);
    while contadores.activas.load(Ordering::SeqCst) < clientes && Instant::now() < limite {
        std::thread::sleep(Duration::from_millis(1));
    }
    let conectar = inicio.elapsed();
    let con_todas = Foto::ahora();

    let inicio = Instant::now();
    let mut bien = 0;
    for m in 0..mensajes {
        bien += ronda(&mut conexiones, m)?;
    }
    let intercambio = inicio.elapsed();

    drop(conexiones); // cada hilo del servidor lee 0 bytes y termina
    let limite = Instant::now() + Duration::from_secs(30);
    while contadores.activas.load(Ordering::SeqCst) > 0 && Instant::now() < limite {
        std::thread::sleep(Duration::from_millis(1));
    }

    let total = clientes * mensajes;
    println!("Clientes conectados a la vez:    {}", entero(clientes as u64));
    println!("Hilos del servidor a la vez:     {} (pico)", entero(contadores.pico.load(Ordering::SeqCst) as u64));
    println!("Tiempo en conectarlos todos:     {} ms", numero(conectar.as_secs_f64() * 1e3, 1));
    println!(
        "Ecos:                            {} de {} correctos (64 B cada uno) en {} ms",
        entero(bien as u64),
        entero(total as u64),
        numero(intercambio.as_secs_f64() * 1e3, 1)
    );
    match (antes, con_todas) {
        (Some(a), Some(d)) => {
            let v = d.virtual_.saturating_sub(a.virtual_) as f64;
            let r = d.residente.saturating_sub(a.residente) as f64;
            let n = clientes as f64;
            println!("Hilos del proceso (/proc):       {} con todas las conexiones abiertas", entero(d.hilos));
            println!(
                "Memoria virtual (VmSize):        +{} MiB = {} KiB por conexión",
                numero(mib(v), 1),
                numero(kib(v / n), 1)
            );
            println!(
                "Memoria residente (VmRSS):       +{} MiB = {} KiB por conexión",
                numero(mib(r), 1),
                numero(kib(r / n), 1)
            );
        }
        _ => println!("Memoria:                         no disponible (este sistema no tiene /proc)"),
    }
    if bien != total {
        return Err(std::io::Error::other(format!(
            "solo {} de {} ecos llegaron bien",
            entero(bien as u64),
            entero(total as u64)
        )));
    }
    Ok(())
}
