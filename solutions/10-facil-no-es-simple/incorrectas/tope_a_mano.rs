//! Respuesta incorrecta: el permiso se olvida (`forget`) y se devuelve a mano
//! con `add_permits(1)` después de `trabajo()`. Mientras nada falla, limita
//! bien; pero si el trabajo entra en pánico, esa línea no se ejecuta y el
//! permiso se pierde para siempre: con un tope de 1, el puente se queda sin
//! sitio.

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
        self.permisos.acquire().await.expect("el semáforo no se cierra").forget();
        let permisos = self.permisos.clone();
        let (tx, rx) = oneshot::channel();
        self.pool.spawn(move || {
            let resultado = trabajo();
            permisos.add_permits(1); // devuelve el permiso a mano
            let _ = tx.send(resultado);
        });
        rx.await.expect("el pool de Rayon soltó el canal sin responder")
    }
}
