//! Ejercicio 2 (solución): un `JoinSet`, `join_next` hasta el primer `Ok`, y
//! `abort_all` para las demás.

use std::future::Future;

use tokio::task::JoinSet;

/// Lanza cada trabajo como tarea y devuelve el valor de la primera que
/// termine bien; cancela las demás.
pub async fn la_primera<F>(trabajos: Vec<F>) -> Option<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    let mut tareas = JoinSet::new();
    for trabajo in trabajos {
        tareas.spawn(trabajo);
    }
    while let Some(resultado) = tareas.join_next().await {
        if let Ok(valor) = resultado {
            // Soltar el JoinSet al volver también las cancelaría; así se lee mejor.
            tareas.abort_all();
            return Some(valor);
        }
        // Un pánico no gana: a por la siguiente.
    }
    None
}
