//! Respuesta incorrecta: pide el permiso con `try_acquire_owned` en un bucle
//! con `yield_now`. El tope se respeta y el permiso viaja bien, pero quien
//! espera un permiso no duerme: se despierta a sí mismo una y otra vez
//! hasta que queda uno libre.

use std::sync::Arc;

use rayon::ThreadPool;
use tokio::sync::{Semaphore, oneshot};

/// Un puente a Rayon con como mucho `max_en_vuelo` trabajos dentro a la vez.
pub struct PuenteAcotado {
    pool: Arc<ThreadPool>,
    permisos: Arc<Semaphore>,
}

impl PuenteAcotado {
    /// Un puente a `pool` que deja `max_en_vuelo` trabajos (al menos 1) en vuelo.
    pub fn nuevo(pool: Arc<ThreadPool>, max_en_vuelo: usize) -> PuenteAcotado {
        PuenteAcotado { pool, permisos: Arc::new(Semaphore::new(max_en_vuelo)) }
    }

    /// Ejecuta `trabajo` en Rayon y devuelve su resultado, sin pasar del tope.
    pub async fn ejecuta<T, F>(&self, trabajo: F) -> T
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        // Sin permiso, el trabajo ni siquiera entra en la cola de Rayon.
        let permiso = loop {
            match self.permisos.clone().try_acquire_owned() {
                Ok(permiso) => break permiso,
                Err(_) => tokio::task::yield_now().await,
            }
        };
        let (tx, rx) = oneshot::channel();
        self.pool.spawn(move || {
            let resultado = trabajo();
            drop(permiso); // el trabajo salió de Rayon: deja sitio a otro
            let _ = tx.send(resultado);
        });
        rx.await.expect("el pool de Rayon soltó el canal sin responder")
    }
}
