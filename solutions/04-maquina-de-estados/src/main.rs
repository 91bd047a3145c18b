//! `cargo run -p soluciones-04`: las tres soluciones del capítulo 04 en marcha.

use std::thread;
use std::time::{Duration, Instant};

use maquina_de_estados::bloquea::block_on;
use maquina_de_estados::cuenta::Cuenta;
use maquina_de_estados::senal::senal;

fn main() {
    println!("1. cuenta: un future que devuelve Pending n veces y se despierta solo");
    let n = block_on(Cuenta::new(3));
    println!("   con nuestro block_on: Cuenta::new(3) dio Pending {n} veces y luego Ready({n})");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let n = runtime.block_on(Cuenta::new(1000));
    println!("   con Tokio: Cuenta::new(1000) terminó tras {n} Pending");

    println!("2. bloquea: block_on duerme hasta que otro hilo despierta al future");
    let (activador, espera) = senal();
    let inicio = Instant::now();
    thread::spawn(move || {
        thread::sleep(Duration::from_millis(100));
        activador.activa();
    });
    block_on(espera);
    println!(
        "   la señal llegó desde otro hilo a los {}; mientras, este hilo dormía en park()",
        medidas::milisegundos(inicio.elapsed())
    );

    println!("3. senal: una tarea de Tokio espera; un hilo del sistema la despierta");
    let (activador, espera) = senal();
    runtime.block_on(async move {
        let tarea = tokio::spawn(async move {
            println!("   [tarea] espero la señal");
            espera.await;
            println!("   [tarea] señal recibida");
            "hecho"
        });
        tokio::task::yield_now().await;
        thread::spawn(move || {
            println!("   [hilo] activo la señal");
            activador.activa();
        });
        println!("   la tarea devolvió {:?}", tarea.await.unwrap());
    });
}
