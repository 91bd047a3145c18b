//! `cargo run -p soluciones-07`: las tres soluciones del capítulo 07 en marcha.

use std::time::{Duration, Instant};

use joinhandle::desenlaces::{self, Desenlace};
use joinhandle::plazo::{self, Final};
use joinhandle::primera;
use tokio::task::JoinSet;
use tokio::time::sleep;

async fn consulta(nombre: &'static str, ms: u64) -> &'static str {
    sleep(Duration::from_millis(ms)).await;
    nombre
}

#[tokio::main]
async fn main() {
    // Los pánicos de las tareas se capturan; que el gancho no llene la pantalla.
    std::panic::set_hook(Box::new(|_| {}));

    println!("1. plazo: una consulta de 20 ms y otra de 200 ms, con un plazo de 50 ms");
    for ms in [20, 200] {
        let inicio = Instant::now();
        let final_ = plazo::con_plazo(Duration::from_millis(50), consulta("respuesta", ms)).await;
        let texto = match final_ {
            Final::Terminada(v) => format!("Terminada({v:?})"),
            Final::Agotada => "Agotada (y la tarea, cancelada)".to_string(),
            Final::Fallida(e) => format!("Fallida({e})"),
        };
        println!("   {ms:>3} ms -> {texto} en {}", medidas::milisegundos(inicio.elapsed()));
    }

    println!("2. la primera: tres réplicas (40, 15 y 25 ms); la de 15 ms, en pánico");
    let inicio = Instant::now();
    let replicas = vec![
        Box::pin(consulta("réplica de 40 ms", 40)) as std::pin::Pin<Box<dyn Future<Output = _> + Send>>,
        Box::pin(async {
            sleep(Duration::from_millis(15)).await;
            panic!("la réplica de 15 ms se cae")
        }),
        Box::pin(consulta("réplica de 25 ms", 25)),
    ];
    let ganadora = primera::la_primera(replicas).await;
    println!("   gana {ganadora:?} en {}; las demás, canceladas", medidas::milisegundos(inicio.elapsed()));

    println!("3. desenlaces: cuatro tareas con un plazo de 50 ms");
    let mut tareas = JoinSet::new();
    let nombres = [
        (tareas.spawn(async { 10u32 }).id(), "la que da 10"),
        (tareas.spawn(async { panic!("pedido {} inexistente", std::hint::black_box(17)) }).id(), "la que falla"),
        (
            tareas
                .spawn(async {
                    sleep(Duration::from_secs(3600)).await;
                    3600
                })
                .id(),
            "la que tarda una hora",
        ),
        (tareas.spawn(async { std::panic::panic_any(42) }).id(), "la que falla sin texto"),
    ];
    let inicio = Instant::now();
    let resultado = desenlaces::clasifica(tareas, Duration::from_millis(50)).await;
    for (id, nombre) in nombres {
        let texto = match &resultado[&id] {
            Desenlace::Valor(v) => format!("Valor({v})"),
            Desenlace::Panico(m) => format!("Panico({m:?})"),
            Desenlace::Cancelada => "Cancelada".to_string(),
        };
        println!("   {nombre:<24} -> {texto}");
    }
    println!("   (en {})", medidas::milisegundos(inicio.elapsed()));
}
