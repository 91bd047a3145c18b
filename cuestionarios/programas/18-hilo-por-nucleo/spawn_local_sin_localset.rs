#[tokio::main(flavor = "current_thread")]
async fn main() {
    let tarea = tokio::task::spawn_local(async {
        println!("hola desde la tarea local");
    });
    tarea.await.unwrap();
}
