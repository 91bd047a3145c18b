//! Ejercicio 3: seguir una petición lenta de principio a fin.
//!
//! El servicio de abajo funciona, pero sus eventos salen sueltos: cuando una
//! petición tarda, no hay forma de saber qué eventos son suyos ni qué paso
//! se llevó el tiempo. Añade tramos, sin cambiar lo que hace el código:
//!
//! - un tramo `peticion` con el campo `id` que cubra toda la petición, del
//!   primer evento al último;
//! - dentro de él, un tramo `autentica` y un tramo `consulta`, cada uno
//!   cubriendo su paso entero, también sus esperas: cada sondeo del paso
//!   ocurre dentro de su tramo;
//! - la consulta corre en otra tarea: su tramo tiene que seguir colgando del
//!   de la petición;
//! - dos peticiones a la vez en el mismo hilo no pueden mezclar sus eventos.
//!
//! Los nombres de los tramos y el campo `id` son los de arriba; los demás
//! campos, los que quieras.

use std::time::Duration;

/// Lo que tarda en contestar el servicio de autenticación.
pub const AUTENTICA: Duration = Duration::from_millis(3);

use tracing::Instrument;

/// Atiende una petición: autentica, consulta en otra tarea y responde.
#[tracing::instrument(name = "peticion", skip(retraso))]
pub async fn atiende(id: u64, retraso: Duration) -> u64 {
    tracing::info!("empieza");
    let usuario = autentica(id).await;
    // `#[instrument]` en una `async fn` crea su tramo en el primer sondeo, ya dentro de la
    // tarea nueva, que no está en ningún tramo. `in_current_span` le pone el de la petición.
    let tarea = tokio::spawn(consulta(usuario, retraso).in_current_span());
    let filas = tarea.await.expect("la consulta no entra en pánico");
    tracing::info!(filas, "responde");
    filas
}

#[tracing::instrument]
async fn autentica(id: u64) -> u64 {
    tokio::time::sleep(AUTENTICA).await; // pregunta a otro servicio
    tracing::info!("autenticado");
    id * 10
}

#[tracing::instrument(skip(retraso))]
async fn consulta(usuario: u64, retraso: Duration) -> u64 {
    tokio::time::sleep(retraso).await;
    tracing::info!("la base de datos contesta");
    usuario + 1
}
