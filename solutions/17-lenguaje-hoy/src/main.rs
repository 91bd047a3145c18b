//! Las tres soluciones del capítulo 17 en marcha: `cargo run -p soluciones-17`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use lenguaje_hoy::acotadas::descarga_todas;
use lenguaje_hoy::enviable::{Fuente, lanza_lecturas};
use lenguaje_hoy::lotes::Lotes;

/// Una fuente que tarda tantos milisegundos como dice la clave.
struct Lenta;

impl Fuente for Lenta {
    async fn lee(&self, clave: u32) -> String {
        tokio::time::sleep(Duration::from_millis(u64::from(clave))).await;
        format!("valor-{clave}")
    }
}

#[tokio::main]
async fn main() {
    let inicio = Instant::now();
    let valores = lanza_lecturas(Arc::new(Lenta), vec![30, 10, 20]).await.expect("la tarea no falla");
    println!("enviable: {valores:?} en {} ms (a la vez: lo que la más lenta)", inicio.elapsed().as_millis());

    let interior = futures::stream::unfold(1u32, |n| async move {
        tokio::task::yield_now().await;
        (n <= 7).then_some((n, n + 1))
    });
    let lotes: Vec<Vec<u32>> = Box::pin(Lotes::new(interior, 3)).collect().await;
    println!("lotes: {lotes:?}");

    let inicio = Instant::now();
    let hechas = descarga_todas(vec![50, 10, 12, 14, 16], 2, async |clave| {
        tokio::time::sleep(Duration::from_millis(u64::from(clave))).await;
        format!("v{clave}")
    })
    .await;
    let orden: Vec<u32> = hechas.iter().map(|(c, _)| *c).collect();
    println!("acotadas: terminaron en el orden {orden:?}, en {} ms con límite 2", inicio.elapsed().as_millis());
}
