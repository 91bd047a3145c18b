use tokio::sync::oneshot;
use tokio::task::AbortHandle;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let (tx, rx) = oneshot::channel::<AbortHandle>();
    let tarea = tokio::spawn(async move {
        let la_propia = rx.await.unwrap();
        la_propia.abort();
        println!("pedí mi cancelación");
        std::future::ready(()).await;
        println!("pasé un .await que no cede");
        tokio::task::yield_now().await;
        println!("pasé un .await que cede");
    });
    tx.send(tarea.abort_handle()).unwrap();
    let resultado = tarea.await;
    println!("cancelada: {}", resultado.is_err_and(|e| e.is_cancelled()));
}
