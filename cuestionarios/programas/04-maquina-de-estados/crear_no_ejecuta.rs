async fn saluda() {
    println!("hola");
}

fn main() {
    let futuro = saluda();
    println!("creado");
    drop(futuro);
    println!("fin");
}
