use std::cell::Cell;
use std::rc::Rc;
use tokio::task::{LocalSet, spawn_local};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let contador = Rc::new(Cell::new(0));
    let c = contador.clone();
    LocalSet::new()
        .run_until(async move {
            let tarea = spawn_local(async move {
                tokio::task::yield_now().await;
                c.set(c.get() + 1);
            });
            tarea.await.unwrap();
        })
        .await;
    println!("contador: {}", contador.get());
}
