//! `cargo run -p soluciones-01`: las tres soluciones del capítulo 01 en marcha.

use std::time::Duration;

use espera::{aforo, cronometro, tramos};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    println!("1. tramos: una traza clasificada por sus medidas, no por sus nombres");
    let us = Duration::from_micros;
    let traza = vec![
        tramos::Tramo { nombre: "calcula: prepara la consulta".into(), pared: us(8), cpu: us(8) },
        tramos::Tramo { nombre: "espera: base de datos".into(), pared: us(10_193), cpu: us(17) },
        tramos::Tramo { nombre: "espera: candado (espera activa)".into(), pared: us(300), cpu: us(300) },
        tramos::Tramo { nombre: "calcula: prepara la respuesta".into(), pared: us(9), cpu: us(8) },
    ];
    for t in &traza {
        println!("   {:<34} {:?}", t.nombre, tramos::clasifica(t));
    }
    let r = tramos::reparte(&traza);
    println!("   calculando {}, esperando {}", medidas::duracion(r.calculo), medidas::duracion(r.espera));

    println!("2. aforo: 10 µs de cálculo y 10 ms de espera por petición");
    let (calculo, espera) = (Duration::from_micros(10), Duration::from_millis(10));
    println!("   fracción de espera: {}", medidas::numero(aforo::fraccion_de_espera(calculo, espera), 4));
    println!("   un hilo que espera cada petición: {} por segundo", aforo::por_segundo(calculo + espera));
    println!("   un hilo que solo calculara:       {} por segundo", aforo::por_segundo(calculo));
    println!("   hilos bloqueantes para 10 000 peticiones/s: {}", aforo::hilos_necesarios(10_000, calculo + espera));

    println!("3. cronometro: un future que calcula un poco y espera dos veces (reloj real)");
    let (suma, medida) = cronometro::mide(async {
        let mut suma = 0u64;
        for i in 0..200_000u64 {
            suma = suma.wrapping_add(std::hint::black_box(i * i));
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
        tokio::time::sleep(Duration::from_millis(10)).await;
        suma
    })
    .await;
    println!(
        "   resultado {suma}: {} sondeos, ocupado {}, esperando {}",
        medida.sondeos,
        medidas::duracion(medida.ocupado),
        medidas::milisegundos(medida.esperando)
    );
}
