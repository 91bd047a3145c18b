use std::sync::Mutex;
use std::time::Duration;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let cuenta = Mutex::new(0);
    let a = async {
        let mut guarda = cuenta.lock().unwrap();
        tokio::time::sleep(Duration::from_millis(10)).await;
        *guarda += 1;
    };
    let b = async {
        *cuenta.lock().unwrap() += 1;
    };
    tokio::join!(a, b);
    println!("cuenta: {}", cuenta.lock().unwrap());
}
