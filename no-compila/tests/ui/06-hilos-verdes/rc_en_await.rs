// `Rc` no es `Send`, y aquí sigue vivo al llegar al `.await`: entre dos
// sondeos, la tarea podría pasar a otro hilo trabajador.
use std::rc::Rc;

#[tokio::main]
async fn main() {
    let tarea = tokio::spawn(async {
        let compartido = Rc::new(String::from("hola"));
        tokio::task::yield_now().await;
        println!("{compartido}");
    });
    tarea.await.unwrap();
}
