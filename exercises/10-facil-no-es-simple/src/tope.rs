//! Ejercicio 2: el puente, con un tope de trabajos en vuelo.
//!
//! Mandar trabajo a Rayon es tan fácil que nada te impide mandar diez mil
//! trabajos de golpe. La cola de Rayon no tiene límite, y cada trabajo que
//! espera en ella guarda su cierre, con sus datos, en memoria. `PuenteAcotado`
//! deja como mucho `max_en_vuelo` trabajos en Rayon a la vez, contando los que
//! esperan en su cola y los que calculan.
//!
//! `ejecuta` tiene que pedir un permiso del semáforo antes de mandar el
//! trabajo a Rayon, y ese permiso tiene que viajar **dentro del cierre** que
//! mandas, para soltarse cuando el trabajo termine. Si lo guardas en la
//! tarea que espera, un `ejecuta` cancelado (su *future* destruido, por un
//! `timeout` que vence, por ejemplo) devolvería el permiso aunque su trabajo
//! siguiera en la cola de Rayon.
//!
//! La versión de abajo es el puente del capítulo 5: funciona, pero no pone
//! ningún tope.

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
        let _ = &self.permisos; // sin usar: ese es el problema
        let (tx, rx) = oneshot::channel();
        self.pool.spawn(move || {
            let _ = tx.send(trabajo());
        });
        rx.await.expect("el pool de Rayon soltó el canal sin responder")
    }
}
