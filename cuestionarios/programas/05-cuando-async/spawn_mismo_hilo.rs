use std::thread;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let de_main = thread::current().id();
    let tarea = tokio::spawn(async { thread::current().id() });
    let de_la_tarea = tarea.await.unwrap();
    println!("¿el mismo hilo? {}", de_main == de_la_tarea);
}
