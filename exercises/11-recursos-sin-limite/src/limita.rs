//! Ejercicio 1: lanza tareas, pero no más de `limite` a la vez.
//!
//! `lanza_limitado(n, limite, trabajo)` ejecuta `trabajo(0)`, `trabajo(1)`,
//! ..., `trabajo(n - 1)`, cada uno en su propia tarea (`tokio::spawn`), y
//! devuelve los resultados en orden.
//!
//! La versión de abajo funciona, pero lanza las `n` tareas de golpe. Con `n`
//! grande, cada tarea ocupa memoria desde que se lanza (en un servidor, con
//! el cuerpo de su petición dentro) aunque solo esté esperando su turno.
//! Cámbiala para que **nunca haya más de `limite` tareas vivas a la vez**:
//!
//! - antes de lanzar cada tarea, consigue un permiso de un
//!   `tokio::sync::Semaphore` con `limite` permisos;
//! - el permiso tiene que vivir tanto como la tarea: muévelo dentro de ella y
//!   suéltalo cuando el trabajo haya terminado.
//!
//! `limite` es al menos 1.

use std::future::Future;

/// Ejecuta `trabajo(i)` para cada `i` de `0..n`, cada uno en su tarea, con
/// como mucho `limite` tareas vivas a la vez. Devuelve los resultados en orden.
pub async fn lanza_limitado<F, Fut, T>(n: usize, limite: usize, trabajo: F) -> Vec<T>
where
    F: Fn(usize) -> Fut,
    Fut: Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let _ = limite; // sin usar: ese es el problema
    let mut tareas = Vec::with_capacity(n);
    for i in 0..n {
        tareas.push(tokio::spawn(trabajo(i)));
    }
    let mut resultados = Vec::with_capacity(n);
    for tarea in tareas {
        resultados.push(tarea.await.expect("una tarea entró en pánico"));
    }
    resultados
}
