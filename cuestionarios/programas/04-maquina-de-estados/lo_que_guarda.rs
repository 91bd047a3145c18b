async fn nada() {}

async fn guarda() -> u8 {
    let bufer = [1u8; 4096];
    nada().await;
    bufer[0]
}

async fn suelta() -> u8 {
    let primero = {
        let bufer = [1u8; 4096];
        bufer[0]
    };
    nada().await;
    primero
}

fn main() {
    println!("guarda: {}", std::mem::size_of_val(&guarda()) > 4096);
    println!("suelta: {}", std::mem::size_of_val(&suelta()) > 4096);
}
