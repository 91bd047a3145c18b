//! Respuesta incorrecta plausible: cada tarea manda su resultado por un
//! canal y gana el primero que llega. Devuelve lo correcto, pero las
//! perdedoras siguen corriendo: nadie las cancela.

use std::future::Future;

pub async fn la_primera<F>(trabajos: Vec<F>) -> Option<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    let (envia, mut recibe) = tokio::sync::mpsc::channel(trabajos.len().max(1));
    for trabajo in trabajos {
        let envia = envia.clone();
        tokio::spawn(async move {
            let valor = trabajo.await;
            let _ = envia.send(valor).await;
        });
    }
    drop(envia);
    recibe.recv().await
}
