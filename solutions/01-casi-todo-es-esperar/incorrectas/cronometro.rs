//! Respuesta incorrecta plausible: cronometra los sondeos bien, pero calcula
//! la espera como «todo lo que pasó desde el primer sondeo», sin restar el
//! tiempo ocupado. Con un future que solo espera no se nota.

use std::future::Future;
use std::time::Duration;

use tokio::time::Instant;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Medida {
    pub ocupado: Duration,
    pub esperando: Duration,
    pub sondeos: u32,
}

pub async fn mide<F: Future>(fut: F) -> (F::Output, Medida) {
    let mut fut = std::pin::pin!(fut);
    let mut medida = Medida::default();
    let inicio = Instant::now();
    let salida = std::future::poll_fn(|cx| {
        let empieza = Instant::now();
        medida.sondeos += 1;
        let r = fut.as_mut().poll(cx);
        medida.ocupado += empieza.elapsed();
        r
    })
    .await;
    medida.esperando = inicio.elapsed();
    (salida, medida)
}
