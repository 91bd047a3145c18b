// Cada tarea tiene un solo JoinHandle: no se puede clonar para esperar la
// misma tarea desde dos sitios. Para cancelarla desde varios, AbortHandle.
#[tokio::main]
async fn main() {
    let tarea = tokio::spawn(async { 6 * 7 });
    let copia = tarea.clone();
    println!("{:?} {:?}", tarea.await, copia.await);
}
