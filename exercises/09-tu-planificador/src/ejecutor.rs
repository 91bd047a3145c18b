//! La interfaz común de los dos ejecutores (y del adaptador de Tokio que usa
//! la lección para medir).

use std::future::Future;

use super::manija::{self, Manija};

// ANCHOR: ejecutor
/// Un ejecutor multihilo: lanza tareas, espera un resultado desde fuera y se
/// apaga. Los manejadores se clonan: cada tarea puede llevarse uno y lanzar
/// más tareas desde dentro.
pub trait Ejecutor: Clone + Send + Sync + 'static {
    /// Lanza una tarea y se olvida de ella (una tarea desligada).
    fn lanza_desligada<F>(&self, future: F)
    where
        F: Future<Output = ()> + Send + 'static;

    /// Sondea `future` en el hilo que llama (que no es un hilo trabajador)
    /// hasta que termine, y devuelve su valor.
    fn bloquea_en<F: Future>(&self, future: F) -> F::Output;

    /// Para los hilos trabajadores y espera a que terminen. Las tareas que
    /// estaban listas (en una cola o en una ranura) se sueltan sin
    /// sondearlas más. Una tarea dormida, que espera un aviso, no está en
    /// ninguna cola: la mantiene viva su `Waker` (guardado en un canal, por
    /// ejemplo), y solo se suelta cuando se suelte ese `Waker`; si alguien
    /// la despierta después del apagado, acaba en una cola que ya nadie vacía.
    fn apaga(&self);

    /// Lanza una tarea y devuelve su manija, que es un future con su valor.
    fn lanza<F>(&self, future: F) -> Manija<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let (envoltorio, manija) = manija::envuelve(future);
        self.lanza_desligada(envoltorio);
        manija
    }
}
// ANCHOR_END: ejecutor
