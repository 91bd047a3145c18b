use std::future::poll_fn;
use std::task::Poll;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut ya_cedi = false;
    poll_fn(|_cx| {
        if ya_cedi {
            return Poll::Ready(());
        }
        ya_cedi = true;
        Poll::Pending
    })
    .await;
    println!("fin");
}
