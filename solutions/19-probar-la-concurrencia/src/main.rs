//! `cargo run -p soluciones-19`: las tres soluciones del capítulo 19 en marcha.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use probar::aparca::Dormitorio;
use probar::azar::Azar;
use probar::reintenta::{Politica, ingresa};
use probar::roba::{Cola, roba_mitad};
use probar::servidor::{Registro, servidor};
use turmoil::net::UdpSocket;

fn main() {
    // 1. loom recorre el dormitorio: dos trabajadores, un productor, dos tareas.
    let ejecuciones = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let e = Arc::clone(&ejecuciones);
    let inicio = Instant::now();
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(2);
    builder.check(move || {
        e.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let d = Arc::new(Dormitorio::nuevo());
        let trabajadores: Vec<_> = (0..2)
            .map(|_| {
                let d = Arc::clone(&d);
                loom::thread::spawn(move || {
                    while !d.toma() {
                        d.aparca();
                    }
                })
            })
            .collect();
        d.encola();
        d.encola();
        for t in trabajadores {
            t.join().unwrap();
        }
    });
    println!(
        "aparca: loom recorrió {} entrelazados (cota 2) sin perder un aviso, en {}",
        ejecuciones.load(std::sync::atomic::Ordering::Relaxed),
        ms(inicio.elapsed())
    );

    // 2. shuttle: 10 000 planificaciones de dos robos cruzados y un dueño que saca.
    let inicio = Instant::now();
    shuttle::check_random(
        || {
            let a = Arc::new(Cola::con([1, 2, 3, 4]));
            let b = Arc::new(Cola::con([5, 6]));
            let (a2, b2) = (Arc::clone(&a), Arc::clone(&b));
            let h = shuttle::thread::spawn(move || roba_mitad(&a2, &b2));
            roba_mitad(&b, &a);
            let sacada = a.saca();
            h.join().unwrap();
            let mut todas: Vec<u32> = a.contenido().into_iter().chain(b.contenido()).chain(sacada).collect();
            todas.sort_unstable();
            assert_eq!(todas, vec![1, 2, 3, 4, 5, 6]);
        },
        10_000,
    );
    println!("roba_mitad: 10 000 planificaciones de shuttle sin perder ni duplicar, en {}", ms(inicio.elapsed()));

    // 3. turmoil: 10 s de red partida para dos clientes que empiezan a la vez y reintentan
    // con espera exponencial acotada y jitter, cada uno con su semilla.
    let registro = Arc::new(Mutex::new(Registro::default()));
    let mut sim = turmoil::Builder::new()
        .min_message_latency(Duration::from_millis(10))
        .max_message_latency(Duration::from_millis(10))
        .tick_duration(Duration::from_millis(10))
        .simulation_duration(Duration::from_secs(60))
        .rng_seed(19)
        .build();
    let r = Arc::clone(&registro);
    sim.host("servidor", move || servidor(Arc::clone(&r)));
    for (id, semilla) in [(1u64, 1u64), (2, 2)] {
        sim.client(format!("cliente-{id}"), async move {
            let socket = UdpSocket::bind((IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0)).await?;
            let p = Politica {
                plazo: Duration::from_millis(100),
                espera_inicial: Duration::from_millis(100),
                espera_max: Duration::from_secs(2),
                intentos: 40,
            };
            let mut azar = Azar::con_semilla(semilla);
            let saldo = ingresa(&socket, id, 10, &p, &mut azar).await.map_err(|e| format!("{e:?}"))?;
            let cuando = turmoil::sim_elapsed().unwrap_or_default();
            println!(
                "reintenta: el cliente {id} ingresó (saldo {saldo}) a los {} ms simulados",
                miles(cuando.as_millis())
            );
            Ok(())
        });
        sim.partition_oneway("servidor", format!("cliente-{id}"));
    }
    let mut reparada = false;
    while !sim.step().expect("la simulación falló") {
        if !reparada && sim.elapsed() >= Duration::from_secs(10) {
            for id in [1, 2] {
                sim.repair_oneway("servidor", format!("cliente-{id}"));
            }
            reparada = true;
        }
    }
    let r = registro.lock().unwrap();
    let de = |id: u64| -> Vec<u128> { r.peticiones.iter().filter(|p| p.1 == id).map(|(t, _)| t.as_millis()).collect() };
    for id in [1, 2] {
        let llegadas: Vec<String> = de(id).into_iter().map(miles).collect();
        println!("reintenta: peticiones del cliente {id}, en ms: {}", llegadas.join(", "));
    }
    let juntas = de(1).iter().skip(1).filter(|t| de(2).contains(t)).count();
    println!(
        "reintenta: {} peticiones llegaron al servidor; tras la primera, {juntas} de los dos clientes a la vez; saldo final {}",
        r.peticiones.len(),
        r.saldo
    );
}

/// Un entero como lo escribe el libro («10 070», «1234»).
fn miles(n: u128) -> String {
    medidas::numero(n as f64, 0)
}

/// Milisegundos con coma decimal, como los escribe el libro («12,5 ms»).
fn ms(d: Duration) -> String {
    format!("{} ms", medidas::numero(d.as_secs_f64() * 1000.0, 1))
}
