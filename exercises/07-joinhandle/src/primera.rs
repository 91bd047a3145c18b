//! Ejercicio 2: la primera que termina gana.
//!
//! Pides lo mismo a varias réplicas y te quedas con la primera respuesta.
//! `la_primera` lanza cada trabajo como una tarea y devuelve el valor de la
//! primera que termine bien. Una tarea que entra en pánico no gana: sigue
//! esperando a las demás. En cuanto hay ganadora, las demás ya no sirven de
//! nada: cancélalas (basta con pedirlo; el runtime las soltará en cuanto
//! tome el control).
//!
//! Si no hay trabajos, o todos entran en pánico, devuelve `None`.

use std::future::Future;

/// Lanza cada trabajo como tarea y devuelve el valor de la primera que
/// termine bien; cancela las demás.
pub async fn la_primera<F>(trabajos: Vec<F>) -> Option<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    let _ = trabajos;
    todo!("usa un JoinSet: spawn para cada trabajo y join_next para recoger")
}
