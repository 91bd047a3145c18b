//! Dos ejecutores mínimos: `block_on` para un solo *future* y `MiniEjecutor`,
//! con una cola de tareas y un `Waker` que vuelve a encolar la tarea.

use std::future::Future;
use std::pin::{Pin, pin};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

use crate::traza;

// ANCHOR: block_on
/// El waker de `block_on`: despertar es marcar una bandera y desaparcar
/// (*unpark*) el hilo que espera dentro de `block_on`.
struct DespiertaHilo {
    hilo: Thread,
    despierto: AtomicBool,
}

impl Wake for DespiertaHilo {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        traza!("  [waker] despierta al hilo de block_on (unpark)");
        self.despierto.store(true, Ordering::Release);
        self.hilo.unpark();
    }
}

/// Sondea `future` en este hilo hasta que termine. Entre sondeo y sondeo el
/// hilo duerme (`park`): no gasta CPU hasta que alguien llama a `wake`.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future); // anclado en la pila de esta función
    let despierta = Arc::new(DespiertaHilo { hilo: thread::current(), despierto: AtomicBool::new(false) });
    let waker = Waker::from(Arc::clone(&despierta)); // `Wake` + `Arc` = `Waker`
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(valor) = future.as_mut().poll(&mut cx) {
            return valor;
        }
        // `park` puede volver sin motivo; la bandera dice si fue un wake de verdad.
        while !despierta.despierto.swap(false, Ordering::Acquire) {
            thread::park();
        }
    }
}
// ANCHOR_END: block_on

// ANCHOR: tarea
/// Una tarea: el future en una caja anclada, más lo necesario para volver a
/// la cola cuando la despierten.
struct Tarea {
    nombre: &'static str,
    future: Mutex<Option<Pin<Box<dyn Future<Output = ()> + Send>>>>,
    en_cola: AtomicBool,
    cola: Sender<Arc<Tarea>>,
}

impl Wake for Tarea {
    fn wake(self: Arc<Self>) {
        // Si ya está en la cola, no la encoles dos veces.
        if !self.en_cola.swap(true, Ordering::AcqRel) {
            traza!("  [waker] {} vuelve a la cola", self.nombre);
            let cola = self.cola.clone();
            let _ = cola.send(self);
        }
    }
}
// ANCHOR_END: tarea

/// Un ejecutor de un hilo con una cola de tareas listas.
pub struct MiniEjecutor {
    listas: Receiver<Arc<Tarea>>,
    cola: Sender<Arc<Tarea>>,
    vivas: usize,
}

impl Default for MiniEjecutor {
    fn default() -> Self {
        Self::new()
    }
}

impl MiniEjecutor {
    pub fn new() -> Self {
        let (cola, listas) = mpsc::channel();
        MiniEjecutor { listas, cola, vivas: 0 }
    }

    // ANCHOR: lanza
    /// Crea una tarea y la pone en la cola: aún no se ha sondeado.
    pub fn lanza(&mut self, nombre: &'static str, future: impl Future<Output = ()> + Send + 'static) {
        let tarea = Arc::new(Tarea {
            nombre,
            future: Mutex::new(Some(Box::pin(future))),
            en_cola: AtomicBool::new(true),
            cola: self.cola.clone(),
        });
        self.vivas += 1;
        self.cola.send(tarea).expect("la cola vive mientras viva el ejecutor");
    }
    // ANCHOR_END: lanza

    // ANCHOR: ejecuta
    /// Sondea tareas de la cola hasta que terminen todas. Devuelve cuántos
    /// sondeos hizo en total.
    pub fn ejecuta(self) -> usize {
        let mut sondeos = 0;
        let mut vivas = self.vivas;
        while vivas > 0 {
            let tarea = match self.listas.try_recv() {
                Ok(tarea) => tarea,
                Err(TryRecvError::Empty) => {
                    traza!("[ejecutor] cola vacía: duermo hasta que un waker encole algo");
                    self.listas.recv().expect("el ejecutor guarda un emisor: la cola no se cierra")
                }
                Err(TryRecvError::Disconnected) => unreachable!("el ejecutor guarda un emisor"),
            };
            tarea.en_cola.store(false, Ordering::Release);
            let mut ranura = tarea.future.lock().unwrap();
            let Some(future) = ranura.as_mut() else { continue }; // ya había terminado
            sondeos += 1;
            traza!("[ejecutor] sondeo {sondeos}: {}", tarea.nombre);
            let waker = Waker::from(Arc::clone(&tarea));
            let mut cx = Context::from_waker(&waker);
            match future.as_mut().poll(&mut cx) {
                Poll::Ready(()) => {
                    traza!("[ejecutor] {} devuelve Ready: terminada", tarea.nombre);
                    *ranura = None; // suelta el future ya, aunque queden wakers vivos
                    vivas -= 1;
                }
                Poll::Pending => traza!("[ejecutor] {} devuelve Pending", tarea.nombre),
            }
        }
        sondeos
    }
    // ANCHOR_END: ejecuta
}

#[cfg(test)]
mod pruebas {
    use super::*;
    use crate::ceder::ceder;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn block_on_devuelve_el_valor() {
        assert_eq!(block_on(async { 40 + 2 }), 42);
        assert_eq!(
            block_on(async {
                ceder().await;
                7
            }),
            7
        );
    }

    #[test]
    fn el_mini_ejecutor_termina_todas_las_tareas() {
        let hechas = Arc::new(AtomicUsize::new(0));
        let mut ejecutor = MiniEjecutor::new();
        for (nombre, pasos) in [("A", 3), ("B", 1), ("C", 0)] {
            let hechas = Arc::clone(&hechas);
            ejecutor.lanza(nombre, async move {
                for _ in 0..pasos {
                    ceder().await;
                }
                hechas.fetch_add(1, Ordering::Relaxed);
            });
        }
        // Un sondeo por cesión más el último de cada tarea: 4 + 2 + 1.
        assert_eq!(ejecutor.ejecuta(), 7);
        assert_eq!(hechas.load(Ordering::Relaxed), 3);
    }
}
