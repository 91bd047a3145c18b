use std::future::{Future, poll_fn};
use std::pin::pin;
use std::time::Duration;

#[tokio::main(flavor = "current_thread", start_paused = true)]
async fn main() {
    let mut espera = pin!(tokio::time::sleep(Duration::from_millis(10)));
    let mut sondeos = 0;
    poll_fn(|cx| {
        sondeos += 1;
        espera.as_mut().poll(cx)
    })
    .await;
    println!("sondeos: {sondeos}");
}
