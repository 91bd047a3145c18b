//! Ejercicio 3: si ya nadie espera, no calcules.
//!
//! La tarea que espera un cálculo de Rayon puede cancelarse: un `timeout`
//! que vence, un `select!` que elige otra rama, un cliente que cuelga. Su
//! *future* se destruye, y con él el receptor del `oneshot`. Pero el trabajo
//! ya estaba en la cola de Rayon, y el puente del capítulo 5 (el de abajo) lo
//! calcula de todos modos, para tirar el resultado.
//!
//! Cambia `a_rayon_si_esperan` para que, cuando el trabajo llegue a un hilo
//! de Rayon y **antes de empezar**, mire si alguien sigue esperando
//! (`oneshot::Sender::is_closed`) y, si no, se lo salte. Un trabajo que ya
//! empezó no se puede interrumpir: termina, y su resultado se pierde sin
//! hacer ruido (sin `unwrap` ni pánicos al enviarlo).
//!
//! El `oneshot` de este archivo es `crate::oneshot`: el de Tokio, con los
//! mismos nombres, y una costura para las pruebas, que pueden parar el hilo
//! de Rayon justo después de que mires `is_closed()` y cancelar la espera en
//! ese instante. Es lo que puede pasar siempre con hilos de verdad: haber
//! mirado hace un momento no garantiza que el envío salga bien.

use rayon::ThreadPool;

use crate::oneshot;

/// Ejecuta `trabajo` en `pool` y devuelve su resultado; si cuando le llega el
/// turno ya nadie espera, no lo ejecuta.
pub async fn a_rayon_si_esperan<T, F>(pool: &ThreadPool, trabajo: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let (tx, rx) = oneshot::channel();
    pool.spawn(move || {
        let _ = tx.send(trabajo());
    });
    rx.await.expect("el pool de Rayon soltó el canal sin responder")
}
