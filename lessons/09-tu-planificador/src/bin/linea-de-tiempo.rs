//! Graba una ejecución de verdad (con hilos, sin semilla) del ejecutor con
//! robo y escribe `resultados/linea-de-tiempo.csv`: qué tarea sondeó cada
//! trabajador y cuándo, si la había robado, y cuándo durmió. La dibuja
//! `grafica-linea-de-tiempo`. Orden: `cargo run --release -p leccion-09 --bin linea-de-tiempo`.
//!
//! La carga: desde fuera se lanza una tarea que lanza 24 hijas; cada hija
//! calcula un poco, cede el turno y calcula otro poco. Después, una pausa
//! sin trabajo (los trabajadores se duermen) y otra ráfaga igual.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use leccion_09::cargas::Cuenta;
use planificador::traza::Registro;
use planificador::{Ejecutor, Robo, ceder};

const HIJAS: usize = 24;
const HILOS: usize = 2;

/// Unos 100 µs de cálculo en esta máquina (depende de la máquina, claro).
fn calcula() {
    let fin = Instant::now() + Duration::from_micros(100);
    let mut x = 0u64;
    while Instant::now() < fin {
        x = black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
}

fn rafaga(robo: &Robo) {
    let cuenta = Cuenta::nueva(HIJAS);
    let e = robo.clone();
    let c = Arc::clone(&cuenta);
    robo.lanza_desligada(async move {
        for _ in 0..HIJAS {
            let c = Arc::clone(&c);
            e.lanza_desligada(async move {
                calcula();
                ceder().await;
                calcula();
                c.hecha();
            });
        }
    });
    robo.bloquea_en(cuenta.espera());
}

fn main() {
    let registro = Registro::en_vivo(HILOS);
    let robo = Robo::grabando(HILOS, Arc::clone(&registro));
    std::thread::sleep(Duration::from_millis(1));
    rafaga(&robo);
    std::thread::sleep(Duration::from_millis(2));
    rafaga(&robo);
    std::thread::sleep(Duration::from_millis(1));
    robo.apaga();
    let (tramos, suenos) = registro.tramos_y_suenos();
    let mut csv = String::from("tipo,trabajador,tarea,inicio_us,fin_us,robada\n");
    for t in &tramos {
        csv.push_str(&format!("sondeo,{},{},{},{},{}\n", t.trabajador, t.tarea, t.inicio_us, t.fin_us, t.robada));
    }
    for s in &suenos {
        csv.push_str(&format!("sueno,{},,{},{},\n", s.trabajador, s.inicio_us, s.fin_us));
    }
    let ruta = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("resultados/linea-de-tiempo.csv");
    if let Err(e) = std::fs::write(&ruta, csv) {
        eprintln!("error: no puedo escribir {}: {e}", ruta.display());
        std::process::exit(1);
    }
    let robadas = tramos.iter().filter(|t| t.robada).count();
    println!(
        "{}: {} sondeos ({} de tareas robadas), {} sueños, {HILOS} trabajadores",
        ruta.display(),
        medidas::entero(tramos.len() as u64),
        medidas::entero(robadas as u64),
        medidas::entero(suenos.len() as u64)
    );
}
