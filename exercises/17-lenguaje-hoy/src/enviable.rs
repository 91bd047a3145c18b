//! Ejercicio 1: haz que compile.
//!
//! `lanza_lecturas` lanza con `tokio::spawn` una tarea que lee varias claves
//! de una `Fuente` a la vez. Tal como está, no compila: el *future* que
//! devuelve `lee` no se puede enviar a otro hilo, o eso cree el compilador,
//! porque nadie le ha prometido que lo sea. Lee el error entero: te dice qué
//! *future* no es `Send` y en qué `.await` está.
//!
//! Arréglalo en este archivo sin cambiar el cuerpo de `lanza_lecturas` ni
//! su firma: las pruebas implementan `Fuente` con `async fn lee`, lanzan la
//! tarea en un *runtime* de varios hilos y miden que las lecturas vayan a
//! la vez y lleguen en el orden de las claves.

use std::sync::Arc;

use tokio::task::JoinHandle;

/// Una fuente de datos lenta: una base de datos, otro servicio.
#[allow(async_fn_in_trait)]
pub trait Fuente {
    /// El valor guardado con la `clave`.
    async fn lee(&self, clave: u32) -> String;
}

/// Lanza una tarea que lee todas las `claves` de `fuente` a la vez (no una
/// detrás de otra) y devuelve los valores en el orden de `claves`.
pub fn lanza_lecturas<F>(fuente: Arc<F>, claves: Vec<u32>) -> JoinHandle<Vec<String>>
where
    F: Fuente + Send + Sync + 'static,
{
    tokio::spawn(async move {
        let lecturas = claves.iter().map(|&clave| fuente.lee(clave));
        futures::future::join_all(lecturas).await
    })
}
