use std::rc::Rc;

#[tokio::main]
async fn main() {
    let tarea = tokio::spawn(async {
        let longitud = {
            let compartido = Rc::new(String::from("hola"));
            compartido.len()
        };
        tokio::task::yield_now().await;
        longitud
    });
    println!("{}", tarea.await.unwrap());
}
