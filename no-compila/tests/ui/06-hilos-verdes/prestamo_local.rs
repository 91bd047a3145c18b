// `tokio::spawn` exige 'static: la tarea puede vivir más que `main`,
// así que no puede llevarse prestado `nombres`.
#[tokio::main]
async fn main() {
    let nombres = vec![String::from("ana"), String::from("luis")];
    let tarea = tokio::spawn(async {
        println!("hay {} nombres", nombres.len());
    });
    tarea.await.unwrap();
}
