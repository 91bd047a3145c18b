//! Respuesta incorrecta plausible: «por si acaso», despierta a la tarea
//! cada vez que el future envuelto da `Pending`. El resultado no cambia, pero
//! el runtime la vuelve a sondear sin parar: una espera activa que gasta CPU
//! y cuenta miles de sondeos que no hacían falta.

use std::future::Future;
use std::time::Duration;

use tokio::time::Instant;

/// Lo que mide `mide`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Medida {
    pub ocupado: Duration,
    pub esperando: Duration,
    pub sondeos: u32,
}

/// Ejecuta `fut` y devuelve su resultado con la medida de sus sondeos.
pub async fn mide<F: Future>(fut: F) -> (F::Output, Medida) {
    let mut fut = std::pin::pin!(fut);
    let mut medida = Medida::default();
    let mut fin_del_anterior: Option<Instant> = None;
    let salida = std::future::poll_fn(|cx| {
        let empieza = Instant::now();
        if let Some(fin) = fin_del_anterior {
            // El hueco desde el sondeo anterior: el future estaba esperando.
            medida.esperando += empieza - fin;
        }
        medida.sondeos += 1;
        let r = fut.as_mut().poll(cx);
        if r.is_pending() {
            cx.waker().wake_by_ref();
        }
        let termina = Instant::now();
        medida.ocupado += termina - empieza;
        fin_del_anterior = Some(termina);
        r
    })
    .await;
    (salida, medida)
}
