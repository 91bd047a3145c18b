//! La tarea: un *future* anclado en una caja, más lo que hace falta para
//! volver a una cola cuando alguien la despierta. Es la misma idea que el
//! `MiniEjecutor` del capítulo 4, con una diferencia: aquí no decide la
//! tarea a qué cola vuelve, sino su ejecutor (el `Destino`).

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Wake, Waker};

/// El *future* de una tarea, en el montículo y con el tipo borrado: así
/// caben tareas de tipos distintos en la misma cola.
pub type FutureEnCaja = Pin<Box<dyn Future<Output = ()> + Send + 'static>>;

// ANCHOR: destino
/// Quien recibe las tareas despertadas. Cada ejecutor decide a qué cola van:
/// el de una cola, a la única que tiene; el de robo de trabajo, a la ranura
/// LIFO del trabajador que la despertó o a la cola global de inyección.
pub trait Destino: Send + Sync {
    fn programa(&self, tarea: Arc<Tarea>);
}
// ANCHOR_END: destino

// ANCHOR: tarea
pub struct Tarea {
    /// Un número para reconocerla en las pruebas.
    pub id: usize,
    /// `None` cuando ya terminó (o cuando el ejecutor se apagó sin acabarla).
    future: Mutex<Option<FutureEnCaja>>,
    /// `true` mientras está en alguna cola: evita encolarla dos veces.
    en_cola: AtomicBool,
    /// El ejecutor al que pertenece.
    destino: Arc<dyn Destino>,
}

impl Wake for Tarea {
    fn wake(self: Arc<Self>) {
        self.despierta();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.despierta();
    }
}
// ANCHOR_END: tarea

impl Tarea {
    /// Una tarea nueva, todavía fuera de cualquier cola: `despierta` la
    /// pone en la primera.
    pub fn nueva(id: usize, future: FutureEnCaja, destino: Arc<dyn Destino>) -> Arc<Tarea> {
        Arc::new(Tarea { id, future: Mutex::new(Some(future)), en_cola: AtomicBool::new(false), destino })
    }

    /// Una tarea que no hace nada y cuyo destino no hace nada: para las
    /// pruebas que mueven tareas entre colas a mano.
    pub fn de_prueba(id: usize) -> Arc<Tarea> {
        struct SinDestino;
        impl Destino for SinDestino {
            fn programa(&self, _tarea: Arc<Tarea>) {}
        }
        Tarea::nueva(id, Box::pin(async {}), Arc::new(SinDestino))
    }

    // ANCHOR: despierta
    /// Entrega la tarea a su ejecutor, salvo que ya esté en una cola.
    pub fn despierta(self: &Arc<Self>) {
        if !self.en_cola.swap(true, Ordering::AcqRel) {
            self.destino.programa(Arc::clone(self));
        }
    }

    /// Sondea la tarea una vez. Devuelve `true` si acaba de terminar.
    pub fn sondea(self: &Arc<Self>) -> bool {
        // Primero se baja la bandera y después se sondea: si el future se
        // despierta durante el sondeo (él mismo u otro hilo), vuelve a una
        // cola y el aviso no se pierde.
        self.en_cola.store(false, Ordering::Release);
        let mut ranura = self.future.lock().unwrap();
        let Some(future) = ranura.as_mut() else {
            return false; // ya había terminado: un despertar tardío, sin más
        };
        let waker = Waker::from(Arc::clone(self));
        let mut cx = Context::from_waker(&waker);
        match future.as_mut().poll(&mut cx) {
            Poll::Pending => false,
            Poll::Ready(()) => {
                let terminado = ranura.take();
                drop(ranura);
                drop(terminado); // su `drop` puede despertar a otras: fuera del candado
                true
            }
        }
    }
    // ANCHOR_END: despierta

    /// Suelta el future sin sondearlo. Lo usa el ejecutor al apagarse, para
    /// que las tareas pendientes no queden vivas para siempre.
    pub fn descarta(&self) {
        let future = self.future.lock().unwrap().take();
        drop(future);
    }
}

// ANCHOR: ceder
/// Cede el control una vez: se despierta a sí misma y devuelve `Pending`.
/// Funciona en cualquier ejecutor (es el `Ceder` del capítulo 4).
pub fn ceder() -> impl Future<Output = ()> + Send {
    let mut cedido = false;
    std::future::poll_fn(move |cx| {
        if cedido {
            return Poll::Ready(());
        }
        cedido = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    })
}
// ANCHOR_END: ceder
