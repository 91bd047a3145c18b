//! Respuesta incorrecta: el permiso se queda en la tarea que espera, no en el
//! trabajo. Mientras nadie cancela, limita bien. Pero si el *future* de
//! `ejecuta` se destruye con su trabajo aún en Rayon, el permiso vuelve al
//! semáforo y entra otro trabajo: el tope deja de serlo.

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
        let _permiso = self.permisos.acquire().await.expect("el semáforo no se cierra");
        let (tx, rx) = oneshot::channel();
        self.pool.spawn(move || {
            let _ = tx.send(trabajo());
        });
        rx.await.expect("el pool de Rayon soltó el canal sin responder")
    }
}
