//! `cargo run -p soluciones-09`: las cuatro piezas del planificador con robo
//! de trabajo, primero una a una y a mano, después juntas.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use planificador::aparca::aparca;
use planificador::roba::roba_mitad;
use planificador::robo::{Compartido, INTERVALO_GLOBAL, Trabajador};
use planificador::tarea::Tarea;
use planificador::{Ejecutor, Robo, UnaCola};

fn ids(cola: &Mutex<VecDeque<Arc<Tarea>>>) -> Vec<usize> {
    cola.lock().unwrap().iter().map(|t| t.id).collect()
}

fn main() {
    println!("1. roba_mitad: la víctima tiene las tareas 0..5 y el ladrón ninguna");
    let victima = Mutex::new((0..5).map(Tarea::de_prueba).collect::<VecDeque<_>>());
    let ladron = Mutex::new(VecDeque::new());
    let primera = roba_mitad(&victima, &ladron).map(|t| t.id);
    println!(
        "   se sondea ya: {primera:?}; cola del ladrón: {:?}; le quedan a la víctima: {:?}",
        ids(&ladron),
        ids(&victima)
    );

    println!("2. siguiente_local: 1 y 2 se despiertan sin parar; la 10 espera en la cola");
    let c = Compartido::nuevo(1);
    c.locales[0].lock().unwrap().push_back(Tarea::de_prueba(10));
    let mut t = Trabajador::nuevo(0, 1);
    t.pon_en_ranura(&c, Tarea::de_prueba(1));
    let mut orden = Vec::new();
    for _ in 0..6 {
        let tarea = t.siguiente_local(&c).unwrap();
        orden.push(tarea.id);
        match tarea.id {
            1 => t.pon_en_ranura(&c, Tarea::de_prueba(2)),
            2 => t.pon_en_ranura(&c, Tarea::de_prueba(1)),
            _ => {}
        }
    }
    println!("   orden de sondeo: {orden:?} (tres de la ranura y le toca a la cola)");

    println!("3. busca_tarea: cola local que nunca se vacía y una tarea (999) en la cola global");
    let c = Compartido::nuevo(2);
    c.locales[0].lock().unwrap().extend((0..10).map(Tarea::de_prueba));
    c.inyector.lock().unwrap().push_back(Tarea::de_prueba(999));
    let mut t = Trabajador::nuevo(0, 1);
    for vuelta in 1..=2 * INTERVALO_GLOBAL {
        let tarea = t.busca_tarea(&c).unwrap();
        if tarea.id == 999 {
            println!("   la 999 salió en la vuelta {vuelta} (INTERVALO_GLOBAL = {INTERVALO_GLOBAL})");
            break;
        }
        c.empuja_local(0, tarea);
    }

    println!("4. aparca: un trabajador duerme hasta que llega una tarea");
    let c = Compartido::nuevo(2);
    let c2 = Arc::clone(&c);
    let dormido = std::thread::spawn(move || aparca(&c2));
    while c.dormidos.load(Ordering::SeqCst) == 0 {
        std::thread::yield_now();
    }
    println!("   dormidos: {}", c.dormidos.load(Ordering::SeqCst));
    c.inyecta(Tarea::de_prueba(1));
    dormido.join().unwrap();
    println!("   llegó una tarea y despertó; dormidos: {}", c.dormidos.load(Ordering::SeqCst));

    println!("5. todo junto: un árbol de 65 535 tareas que lanzan tareas, con 2 hilos trabajadores");
    let robo = Robo::nuevo(2);
    let (total, ms) = arbol(&robo, 15);
    let k = robo.contadores();
    println!(
        "   robo:     {total} tareas en {} ms; {} robos se llevaron {} tareas; {} desbordes",
        medidas::numero(ms, 1),
        k.robos.load(Ordering::Relaxed),
        k.robadas.load(Ordering::Relaxed),
        k.desbordes.load(Ordering::Relaxed)
    );
    robo.apaga();
    let una_cola = UnaCola::nuevo(2);
    let (total, ms) = arbol(&una_cola, 15);
    println!("   una cola: {total} tareas en {} ms", medidas::numero(ms, 1));
    una_cola.apaga();
}

/// Lanza un árbol binario de la profundidad dada y espera a que acabe.
fn arbol<E: Ejecutor>(ejecutor: &E, profundidad: u32) -> (usize, f64) {
    #[allow(clippy::manual_async_fn)] // se llama a sí misma: no puede ser un `async fn`
    fn rama<E: Ejecutor>(e: E, d: u32, hechas: Arc<AtomicUsize>) -> impl Future<Output = ()> + Send {
        async move {
            if d > 0 {
                e.lanza_desligada(rama(e.clone(), d - 1, Arc::clone(&hechas)));
                e.lanza_desligada(rama(e.clone(), d - 1, Arc::clone(&hechas)));
            }
            hechas.fetch_add(1, Ordering::Release);
        }
    }
    let esperadas = (1usize << (profundidad + 1)) - 1;
    let hechas = Arc::new(AtomicUsize::new(0));
    let inicio = Instant::now();
    ejecutor.lanza_desligada(rama(ejecutor.clone(), profundidad, Arc::clone(&hechas)));
    // Espera desde fuera, sin ocupar un hilo trabajador.
    while hechas.load(Ordering::Acquire) < esperadas {
        std::thread::sleep(std::time::Duration::from_micros(200));
    }
    (esperadas, inicio.elapsed().as_secs_f64() * 1000.0)
}
