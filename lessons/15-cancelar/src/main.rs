//! Cancelar sin perder nada, visto en tres partes: qué se suelta al soltar
//! un *future*; cómo un `select!` en bucle pierde bytes y mensajes, y cómo
//! se arregla; y un apagado ordenado de un servidor, fase a fase.
//!
//! ```text
//! cargo run -p leccion-15 --release       # 1000 registros, 20 clientes
//! cargo run -p leccion-15 -- --rapido     # 200 registros, 8 clientes: lo que usan las pruebas
//! ```
//!
//! La segunda parte corre con el reloj en pausa: sus cuentas salen iguales
//! en cada ejecución. La tercera usa el reloj de verdad y sockets TCP en
//! 127.0.0.1, y termina sola.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use leccion_15::{
    Guarda, Opciones, contador, cuenta, escritor_lento, lee_con_future_vivo, lee_con_read_exact, lee_en_su_tarea, ms,
    produce_con_reserve, produce_con_send,
};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::sleep;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

fn main() {
    let opciones: Opciones = opciones::de_la_linea_de_ordenes();
    let real = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    real.block_on(que_se_suelta());

    let en_pausa =
        tokio::runtime::Builder::new_current_thread().enable_all().start_paused(true).build().expect("runtime");
    en_pausa.block_on(select_en_bucle(&opciones));
    drop(en_pausa);

    let multihilo =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    multihilo.block_on(apagado_ordenado(&opciones));
}

/// 1. Soltar un future: qué se suelta y qué sigue.
async fn que_se_suelta() {
    println!("1. Soltar un future: qué se suelta y qué sigue");
    // ANCHOR: que_se_suelta
    let guardas = contador();
    let tarea_acabo = Arc::new(AtomicBool::new(false));
    let bloqueante_acabo = Arc::new(AtomicBool::new(false));
    let (mut extremo, mut otro_extremo) = tokio::io::duplex(1024);
    let mensaje = vec![7u8; 64 * 1024];
    let largo = mensaje.len();

    let trabajo = {
        let (guarda, tarea_acabo, bloqueante_acabo) =
            (Guarda(guardas.clone()), tarea_acabo.clone(), bloqueante_acabo.clone());
        async move {
            let _guarda = guarda; // una variable local del future
            let _tarea = tokio::spawn(async move {
                sleep(Duration::from_millis(20)).await;
                tarea_acabo.store(true, Ordering::SeqCst);
            });
            let _bloqueante = tokio::task::spawn_blocking(move || {
                std::thread::sleep(Duration::from_millis(20));
                bloqueante_acabo.store(true, Ordering::SeqCst);
            });
            println!("   el future llegó hasta el write_all");
            // Nadie lee el otro extremo: caben 1024 bytes y el resto espera.
            extremo.write_all(&mensaje).await.unwrap();
            println!("   (esta línea no sale nunca)");
        }
    };
    // El plazo vence y `timeout` suelta el future en su último .await.
    let resultado = tokio::time::timeout(Duration::from_millis(5), trabajo).await;
    println!("   tras el plazo: {}", if resultado.is_err() { "cancelado" } else { "terminó" });
    println!("   guarda local:               soltada = {}", cuenta(&guardas) == 1);
    println!("   tarea lanzada dentro:       ¿acabó ya? {}", tarea_acabo.load(Ordering::SeqCst));
    println!("   trabajo de spawn_blocking:  ¿acabó ya? {}", bloqueante_acabo.load(Ordering::SeqCst));
    let mut llegaron = Vec::new();
    otro_extremo.read_to_end(&mut llegaron).await.unwrap();
    println!("   write_all de {} bytes:   llegaron {} al otro extremo", largo, llegaron.len());
    sleep(Duration::from_millis(40)).await;
    println!(
        "   40 ms después: la tarea acabó = {}, el trabajo bloqueante acabó = {}",
        tarea_acabo.load(Ordering::SeqCst),
        bloqueante_acabo.load(Ordering::SeqCst)
    );
    // ANCHOR_END: que_se_suelta
}

/// 2. Un `select!` en bucle que pierde bytes y mensajes, y los arreglos.
async fn select_en_bucle(opciones: &Opciones) {
    let n = opciones.registros();
    println!("2. select! en bucle, con un latido cada 3 ms (reloj en pausa)");
    println!("   {n} registros de 16 bytes, escritos en dos mitades con 1 ms entre ellas");
    let flujo = || {
        let (escribe, lee) = tokio::io::duplex(64);
        tokio::spawn(escritor_lento(escribe, n));
        lee
    };
    let inicio = tokio::time::Instant::now();
    let r = lee_con_read_exact(flujo(), n).await;
    let duracion = inicio.elapsed();
    println!(
        "   read_exact en el select!:       íntegros {:>4}, rotos {:>4}, bytes perdidos {:>5}, latidos {} ({:.0} ms de reloj)",
        r.integros,
        r.rotos,
        r.bytes_perdidos,
        r.latidos,
        ms(duracion)
    );
    let r = lee_con_future_vivo(flujo(), n).await;
    println!(
        "   el mismo future entre vueltas:  íntegros {:>4}, rotos {:>4}, bytes perdidos {:>5}, latidos {}",
        r.integros, r.rotos, r.bytes_perdidos, r.latidos
    );
    let r = lee_en_su_tarea(flujo(), n).await;
    println!(
        "   la lectura en su propia tarea:  íntegros {:>4}, rotos {:>4}, bytes perdidos {:>5}, latidos {}",
        r.integros, r.rotos, r.bytes_perdidos, r.latidos
    );
    println!("   {n} mensajes por un canal de capacidad 1 a un consumidor que saca uno cada 2 ms");
    let e = produce_con_send(n).await;
    println!("   send en el select!:             entregados {:>4}, perdidos {:>4}", e.entregados, e.perdidos);
    let e = produce_con_reserve(n).await;
    println!("   reserve y luego send:           entregados {:>4}, perdidos {:>4}", e.entregados, e.perdidos);
}

/// Atiende una conexión: lee cuántos ms dura el trabajo, lo hace y responde.
/// Si cancelan `cortar` a mitad, responde «cortada» y cierra.
async fn atiende(socket: TcpStream, cortar: CancellationToken) {
    let (lectura, mut escritura) = socket.into_split();
    let mut linea = String::new();
    BufReader::new(lectura).read_line(&mut linea).await.unwrap();
    let dura: u64 = linea.trim().parse().unwrap();
    match cortar.run_until_cancelled(sleep(Duration::from_millis(dura))).await {
        Some(()) => escritura.write_all(b"hecho\n").await.unwrap(),
        None => escritura.write_all(b"cortada\n").await.unwrap(),
    }
}

/// Parte 3: un apagado ordenado. Dejar de aceptar, terminar lo que está en
/// curso con un plazo, cortar lo que quede. Cada fase, medida.
async fn apagado_ordenado(opciones: &Opciones) {
    const PLAZO: Duration = Duration::from_millis(100);
    println!("3. Apagado ordenado de un servidor TCP en 127.0.0.1 ({} clientes; plazo de 100 ms)", opciones.clientes());
    // ANCHOR: servidor
    let escucha = TcpListener::bind("127.0.0.1:0").await.expect("no se pudo escuchar en 127.0.0.1");
    let direccion = escucha.local_addr().unwrap();
    let parar = CancellationToken::new(); // deja de aceptar
    let cortar = CancellationToken::new(); // corta el trabajo en curso
    let conexiones = TaskTracker::new();
    let aceptador = {
        let (parar, cortar, conexiones) = (parar.clone(), cortar.clone(), conexiones.clone());
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    biased;
                    _ = parar.cancelled() => break,
                    aceptada = escucha.accept() => {
                        let (socket, _) = aceptada.expect("accept en loopback");
                        conexiones.spawn(atiende(socket, cortar.clone()));
                    }
                }
            }
            // `escucha` se suelta aquí: el puerto deja de aceptar conexiones.
        })
    };
    // ANCHOR_END: servidor

    // Los clientes: casi todos piden 10-60 ms de trabajo; uno de cada siete, 5 s.
    let mut clientes = tokio::task::JoinSet::new();
    for i in 0..opciones.clientes() {
        let dura = if i % 7 == 3 { 5000 } else { 10 + (i as u64 * 13) % 50 };
        clientes.spawn(async move {
            let mut s = TcpStream::connect(direccion).await.expect("conectar en loopback");
            s.write_all(format!("{dura}\n").as_bytes()).await.unwrap();
            let mut respuesta = String::new();
            s.read_to_string(&mut respuesta).await.unwrap();
            respuesta
        });
    }
    // Que el servidor acepte a todos antes de pedir el apagado.
    while conexiones.len() < opciones.clientes() {
        sleep(Duration::from_millis(1)).await;
    }

    // ANCHOR: apagado
    // La señal: Ctrl+C o, para que la lección acabe sola, 5 ms.
    tokio::select! {
        _ = tokio::signal::ctrl_c() => println!("   Ctrl+C: apagando"),
        _ = sleep(Duration::from_millis(5)) => println!("   pasaron 5 ms: apagando"),
    }
    let t0 = Instant::now();
    // Fase 1: dejar de aceptar.
    parar.cancel();
    aceptador.await.unwrap();
    let fase1 = t0.elapsed();
    let rechazada = TcpStream::connect(direccion).await.is_err();

    // Fase 2: dejar terminar lo que está en curso, con un plazo.
    conexiones.close(); // wait() volverá cuando no quede ninguna
    let a_tiempo = tokio::time::timeout(PLAZO, conexiones.wait()).await.is_ok();
    let fase2 = t0.elapsed() - fase1;

    // Fase 3: cortar lo que quede y esperar a que acabe de verdad.
    let quedaban = conexiones.len();
    cortar.cancel();
    conexiones.wait().await;
    let fase3 = t0.elapsed() - fase1 - fase2;
    // ANCHOR_END: apagado

    let mut atendidas = 0;
    let mut cortadas = 0;
    while let Some(respuesta) = clientes.join_next().await {
        match respuesta.unwrap().as_str() {
            "hecho\n" => atendidas += 1,
            _ => cortadas += 1,
        }
    }
    println!("   fase 1, dejar de aceptar:          {:>8.3} ms; una conexión nueva, rechazada: {rechazada}", ms(fase1));
    println!("   fase 2, terminar lo que hay:       {:>8.3} ms; ¿acabaron todas a tiempo? {a_tiempo}", ms(fase2));
    println!("   fase 3, cortar las {quedaban} que quedaban: {:>8.3} ms", ms(fase3));
    println!("   informe: {atendidas} atendidas, {cortadas} cortadas (los clientes recibieron «cortada»)");
}
