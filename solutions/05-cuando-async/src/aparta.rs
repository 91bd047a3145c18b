//! Ejercicio 1 (solución): `spawn_blocking` lleva el trabajo al pool de hilos
//! bloqueantes; la tarea espera el `JoinHandle` y suelta su hilo trabajador.

/// Ejecuta `trabajo` fuera del hilo trabajador y devuelve lo que devuelva.
pub async fn aparta<T, F>(trabajo: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    match tokio::task::spawn_blocking(trabajo).await {
        Ok(valor) => valor,
        // El pánico del trabajo viaja dentro del JoinError: lo relanzamos tal
        // cual, con su valor original.
        Err(error) => match error.try_into_panic() {
            Ok(panico) => std::panic::resume_unwind(panico),
            // Solo pasa si el runtime se está apagando.
            Err(error) => panic!("el trabajo se canceló: {error}"),
        },
    }
}
