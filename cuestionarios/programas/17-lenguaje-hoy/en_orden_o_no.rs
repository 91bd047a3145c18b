use futures::{StreamExt, stream};
use std::time::Duration;

#[tokio::main(flavor = "current_thread", start_paused = true)]
async fn main() {
    let tarda = |ms: u64| async move {
        tokio::time::sleep(Duration::from_millis(ms)).await;
        ms
    };
    let en_orden: Vec<u64> = stream::iter([30, 10, 20]).map(tarda).buffered(3).collect().await;
    let sin_orden: Vec<u64> = stream::iter([30, 10, 20]).map(tarda).buffer_unordered(3).collect().await;
    println!("buffered: {en_orden:?}");
    println!("buffer_unordered: {sin_orden:?}");
}
