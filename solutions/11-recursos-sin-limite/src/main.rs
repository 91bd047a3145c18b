//! `cargo run -p soluciones-11`: las tres soluciones del capítulo 11 en
//! marcha, cada una con un pico pequeño y sus cuentas.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use recursos::despacha::despacha;
use recursos::limita::lanza_limitado;
use recursos::rechaza::Recepcion;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    println!("1. lanza_limitado: 40 trabajos de 20 ms, como mucho 8 tareas a la vez");
    let en_curso = Arc::new(AtomicUsize::new(0));
    let (max, max_tareas) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let inicio = Instant::now();
    let resultados = lanza_limitado(40, 8, |i| {
        let (en_curso, max, max_tareas) = (en_curso.clone(), max.clone(), max_tareas.clone());
        async move {
            let ahora = en_curso.fetch_add(1, Ordering::SeqCst) + 1;
            max.fetch_max(ahora, Ordering::SeqCst);
            let tareas = tokio::runtime::Handle::current().metrics().num_alive_tasks();
            max_tareas.fetch_max(tareas, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(20)).await;
            en_curso.fetch_sub(1, Ordering::SeqCst);
            i * 2
        }
    })
    .await;
    println!(
        "   {} resultados (el último, {}); como mucho {} trabajos y {} tareas vivas a la vez; {:.0} ms",
        resultados.len(),
        resultados.last().unwrap(),
        max.load(Ordering::SeqCst),
        max_tareas.load(Ordering::SeqCst),
        inicio.elapsed().as_secs_f64() * 1000.0
    );

    println!("2. Recepcion: capacidad 3, se ofrecen 5 trabajos y nadie los saca todavía");
    let (recepcion, mut buzon) = Recepcion::nueva(3);
    for i in 1..=5 {
        match recepcion.ofrece(format!("pedido {i}")).await {
            Ok(()) => println!("   pedido {i}: aceptado"),
            Err(rechazo) => {
                let motivo = rechazo.to_string();
                println!("   {}: {motivo}", rechazo.trabajo());
            }
        }
    }
    println!("   aceptadas {}, rechazadas {}", recepcion.aceptadas(), recepcion.rechazadas());
    let primero = buzon.recibe().await.unwrap();
    println!("   quien atiende saca «{primero}»; ahora cabe otro:");
    match recepcion.ofrece("pedido 6".to_string()).await {
        Ok(()) => println!("   pedido 6: aceptado"),
        Err(rechazo) => println!("   pedido 6: {rechazo}"),
    }
    drop(buzon);
    match recepcion.ofrece("pedido 7".to_string()).await {
        Ok(()) => println!("   pedido 7: aceptado"),
        Err(rechazo) => println!("   sin buzón, pedido 7: {rechazo}"),
    }

    println!("3. despacha: cola de 4, 2 trabajos de 10 ms a la vez; llegan 30 de golpe");
    let terminados = Arc::new(AtomicUsize::new(0));
    let t = terminados.clone();
    let (tx, despachador) = despacha(4, 2, move |_n: u32| {
        let t = t.clone();
        async move {
            tokio::time::sleep(Duration::from_millis(10)).await;
            t.fetch_add(1, Ordering::SeqCst);
        }
    });
    let mut aceptados = 0;
    for n in 0..30 {
        if tx.try_send(n).is_ok() {
            aceptados += 1;
        }
        tokio::task::yield_now().await;
    }
    drop(tx);
    let atendidos = despachador.await.expect("el despachador no falla");
    println!(
        "   aceptados {aceptados}, rechazados {}; al cerrar, el despachador atendió {atendidos} y \
         habían terminado {}",
        30 - aceptados,
        terminados.load(Ordering::SeqCst)
    );
}
