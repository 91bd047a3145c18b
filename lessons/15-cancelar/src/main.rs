//! Cancelar sin perder nada, visto en tres partes: qué se suelta al soltar
//! un *future*; cómo un `select!` en bucle pierde bytes y mensajes, y cómo
//! se arregla; y un apagado ordenado de un servidor, fase a fase.
//!
//! ```text
//! cargo run -p leccion-15 --release       # 1000 registros, 20 clientes
//! cargo run -p leccion-15 -- --rapido     # 200 registros, 8 clientes: lo que usan las pruebas
//! cargo run -p leccion-15 -- --senal 60   # la tercera parte espera tu SIGTERM o tu Ctrl+C
//! ```
//!
//! La segunda parte corre con el reloj en pausa: sus cuentas salen iguales
//! en cada ejecución. La tercera usa el reloj de verdad y sockets TCP en
//! 127.0.0.1, y termina sola: a los 5 ms, o con `--senal N`, cuando le
//! mandes SIGTERM (`kill PID`) o Ctrl+C, o a los N segundos.

use std::time::{Duration, Instant};

use leccion_15::{
    GRACIA, Guarda, MARGEN, Opciones, Senales, contador, cuenta, escritor_lento, lee_con_future_vivo,
    lee_con_read_exact, lee_en_su_tarea, ms, plazo_de_la_fase_2, produce_con_reserve, produce_con_send,
};
use medidas::{entero, numero};
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
    // La tarea y el trabajo bloqueante no acaban hasta que les des permiso
    // (así lo que se ve no depende de lo rápida que sea la máquina), y dicen
    // por un canal cuándo han acabado.
    let (permiso_tarea, espera_tarea) = tokio::sync::oneshot::channel::<()>();
    let (permiso_bloqueante, espera_bloqueante) = std::sync::mpsc::channel::<()>();
    let (acabo_tx, mut acabo_rx) = tokio::sync::mpsc::unbounded_channel::<&str>();
    let (mut extremo, mut otro_extremo) = tokio::io::duplex(1024);
    let mensaje = vec![7u8; 64 * 1024];
    let largo = mensaje.len();

    let trabajo = {
        let (guarda, acabo_tarea, acabo_bloqueante) = (Guarda(guardas.clone()), acabo_tx.clone(), acabo_tx);
        async move {
            let _guarda = guarda; // una variable local del future
            let _tarea = tokio::spawn(async move {
                let _ = espera_tarea.await;
                let _ = acabo_tarea.send("la tarea");
            });
            let _bloqueante = tokio::task::spawn_blocking(move || {
                let _ = espera_bloqueante.recv();
                let _ = acabo_bloqueante.send("el trabajo bloqueante");
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
    let mut llegaron = Vec::new();
    otro_extremo.read_to_end(&mut llegaron).await.unwrap();
    println!(
        "   write_all de {} bytes:   llegaron {} al otro extremo",
        entero(largo as u64),
        entero(llegaron.len() as u64)
    );
    // El future ya no existe, pero lo que lanzó sigue esperando su permiso.
    let _ = (permiso_tarea.send(()), permiso_bloqueante.send(()));
    let mut acabaron = Vec::new();
    while let Some(quien) = acabo_rx.recv().await {
        acabaron.push(quien);
    }
    acabaron.sort();
    println!("   con el future ya soltado, al darles permiso acabaron: {}", acabaron.join(" y "));
    // ANCHOR_END: que_se_suelta
}

/// 2. Un `select!` en bucle que pierde bytes y mensajes, y los arreglos.
async fn select_en_bucle(opciones: &Opciones) {
    let n = opciones.registros();
    println!("2. select! en bucle, con un latido cada 3 ms (reloj en pausa)");
    println!("   {} registros de 16 bytes, escritos en dos mitades con 1 ms entre ellas", entero(n));
    let flujo = || {
        let (escribe, lee) = tokio::io::duplex(64);
        tokio::spawn(escritor_lento(escribe, n));
        lee
    };
    let inicio = tokio::time::Instant::now();
    let r = lee_con_read_exact(flujo(), n).await;
    let duracion = inicio.elapsed();
    println!(
        "   read_exact en el select!:       íntegros {:>4}, rotos {:>4}, bytes perdidos {:>5}, latidos {} ({} ms de reloj)",
        entero(r.integros),
        entero(r.rotos),
        entero(r.bytes_perdidos),
        entero(r.latidos),
        numero(ms(duracion), 0)
    );
    let r = lee_con_future_vivo(flujo(), n).await;
    println!(
        "   el mismo future entre vueltas:  íntegros {:>4}, rotos {:>4}, bytes perdidos {:>5}, latidos {}",
        entero(r.integros),
        entero(r.rotos),
        entero(r.bytes_perdidos),
        entero(r.latidos)
    );
    let r = lee_en_su_tarea(flujo(), n).await;
    println!(
        "   la lectura en su propia tarea:  íntegros {:>4}, rotos {:>4}, bytes perdidos {:>5}, latidos {}",
        entero(r.integros),
        entero(r.rotos),
        entero(r.bytes_perdidos),
        entero(r.latidos)
    );
    println!("   {} mensajes por un canal de capacidad 1 a un consumidor que saca uno cada 2 ms", entero(n));
    let e = produce_con_send(n).await;
    println!(
        "   send en el select!:             entregados {:>4}, perdidos {:>4}",
        entero(e.entregados),
        entero(e.perdidos)
    );
    let e = produce_con_reserve(n).await;
    println!(
        "   reserve y luego send:           entregados {:>4}, perdidos {:>4}",
        entero(e.entregados),
        entero(e.perdidos)
    );
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
    let plazo = plazo_de_la_fase_2(GRACIA, MARGEN);
    println!(
        "3. Apagado ordenado de un servidor TCP en 127.0.0.1 ({} clientes; gracia de {} ms, plazo de la fase 2: {} ms)",
        opciones.clientes(),
        GRACIA.as_millis(),
        plazo.as_millis()
    );
    // Antes de nada: desde aquí, SIGTERM y Ctrl+C ya no matan el proceso.
    let mut senales = Senales::registra().expect("registrar los manejadores de SIGTERM y SIGINT");
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
    if let Some(n) = opciones.senal {
        println!("   esperando SIGTERM o Ctrl+C (pid {}), como mucho {n} s", std::process::id());
    }

    // ANCHOR: apagado
    // La señal: SIGTERM o Ctrl+C; para que la lección acabe sola, también un temporizador.
    tokio::select! {
        cual = senales.espera() => println!("   {cual}: apagando"),
        _ = sleep(opciones.espera_de_la_senal()) => {
            println!("   pasaron {} ms sin señal: apagando", opciones.espera_de_la_senal().as_millis())
        }
    }
    let t0 = Instant::now();
    // El plazo se fija una vez, desde la señal: la gracia menos el margen.
    let limite = tokio::time::Instant::from_std(t0) + plazo;
    // Fase 1: dejar de aceptar.
    parar.cancel();
    aceptador.await.unwrap();
    let fase1 = t0.elapsed();
    let rechazada = TcpStream::connect(direccion).await.is_err();

    // Fase 2: dejar terminar lo que está en curso, hasta el límite.
    conexiones.close(); // wait() volverá cuando no quede ninguna
    let a_tiempo = tokio::time::timeout_at(limite, conexiones.wait()).await.is_ok();
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
    println!(
        "   fase 1, dejar de aceptar:          {:>8} ms; una conexión nueva, rechazada: {rechazada}",
        numero(ms(fase1), 3)
    );
    println!(
        "   fase 2, terminar lo que hay:       {:>8} ms; ¿acabaron todas a tiempo? {a_tiempo}",
        numero(ms(fase2), 3)
    );
    println!("   fase 3, cortar las {quedaban} que quedaban: {:>8} ms", numero(ms(fase3), 3));
    println!(
        "   total, de la señal al final:       {:>8} ms (la gracia era de {} ms)",
        numero(ms(t0.elapsed()), 3),
        GRACIA.as_millis()
    );
    println!("   informe: {atendidas} atendidas, {cortadas} cortadas (los clientes recibieron «cortada»)");
    println!("   {}", en_la_cola_de_accept().await);
}

// ANCHOR: en_la_cola
/// Un cliente que conectó pero que nadie aceptó: el kernel completó su
/// saludo TCP y lo dejó en la cola de `accept`. Al soltar la escucha, el
/// kernel cierra esa conexión con un *reset*.
async fn en_la_cola_de_accept() -> String {
    let escucha = TcpListener::bind("127.0.0.1:0").await.expect("escuchar en 127.0.0.1");
    let mut cliente = TcpStream::connect(escucha.local_addr().unwrap()).await.expect("conectar en loopback");
    drop(escucha); // nadie llamó a accept
    let mut uno = [0u8; 1];
    let lo_que_ve = match cliente.read(&mut uno).await {
        Ok(0) => "un final limpio (0 bytes)".to_string(),
        Ok(_) => "datos".to_string(),
        Err(e) => format!("{:?}", e.kind()),
    };
    format!("un cliente que esperaba en la cola de accept al soltar la escucha lee: {lo_que_ve}")
}
// ANCHOR_END: en_la_cola
