//! Respuesta incorrecta: `let _ = ...acquire().await`. El patrón `_` no
//! guarda el permiso: vuelve al semáforo en esa misma línea y no hay tope.

use std::sync::Arc;

use rayon::ThreadPool;
use tokio::sync::{Semaphore, oneshot};

pub struct PuenteAcotado {
    pool: Arc<ThreadPool>,
    permisos: Arc<Semaphore>,
}

impl PuenteAcotado {
    pub fn nuevo(pool: Arc<ThreadPool>, max_en_vuelo: usize) -> PuenteAcotado {
        PuenteAcotado { pool, permisos: Arc::new(Semaphore::new(max_en_vuelo)) }
    }

    pub async fn ejecuta<T, F>(&self, trabajo: F) -> T
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let _ = self.permisos.acquire().await.expect("el semáforo no se cierra");
        let (tx, rx) = oneshot::channel();
        self.pool.spawn(move || {
            let _ = tx.send(trabajo());
        });
        rx.await.expect("el pool de Rayon soltó el canal sin responder")
    }
}
