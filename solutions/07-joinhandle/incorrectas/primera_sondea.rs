//! Respuesta incorrecta plausible: guarda los JoinHandle en un `Vec` y los
//! recorre una y otra vez preguntando `is_finished()`, con un `yield_now`
//! entre vuelta y vuelta. Elige bien la ganadora, pero no espera dormida:
//! la tarea se despierta en cada vuelta aunque no haya terminado nadie.

use std::future::Future;

pub async fn la_primera<F>(trabajos: Vec<F>) -> Option<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    let mut tareas: Vec<_> = trabajos.into_iter().map(tokio::spawn).collect();
    while !tareas.is_empty() {
        if let Some(i) = tareas.iter().position(|t| t.is_finished()) {
            let tarea = tareas.swap_remove(i);
            if let Ok(valor) = tarea.await {
                for perdedora in &tareas {
                    perdedora.abort();
                }
                return Some(valor);
            }
            continue;
        }
        tokio::task::yield_now().await;
    }
    None
}
