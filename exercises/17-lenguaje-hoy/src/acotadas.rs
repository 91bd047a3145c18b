//! Ejercicio 3: concurrencia acotada con combinadores de `Stream`.
//!
//! `descarga_todas` descarga cada clave con la función async `descarga`, con
//! como mucho `limite` descargas en curso a la vez (el límite del capítulo
//! 11, esta vez sobre un `Stream`). En cuanto una termina empieza la
//! siguiente: no se espera a que acabe una tanda entera. Devuelve las
//! parejas `(clave, valor)` en el orden en que terminan, no en el de las
//! claves.
//!
//! `descarga` es un cierre async (`AsyncFn`): se llama con
//! `descarga(clave).await`, y su *future* toma prestado el cierre. Todo
//! corre dentro de la tarea que llama: no lances tareas.

/// Descarga todas las `claves` con como mucho `limite` (al menos 1)
/// descargas a la vez. Devuelve `(clave, valor)` en el orden en que acaban.
pub async fn descarga_todas<F>(claves: Vec<u32>, limite: usize, descarga: F) -> Vec<(u32, String)>
where
    F: AsyncFn(u32) -> String,
{
    let _ = (claves, limite, descarga);
    todo!("todavía sin resolver: usa un Stream con buffer_unordered")
}
