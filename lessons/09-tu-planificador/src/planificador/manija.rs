//! `Manija<T>`: el `JoinHandle` de nuestros ejecutores. Es un *future* que
//! termina con el valor de la tarea.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

/// Lo que comparten la tarea y su manija.
struct Buzon<T> {
    valor: Option<T>,
    /// El `Waker` de quien espera la manija, si ya la ha sondeado.
    quien_espera: Option<Waker>,
}

/// Espera el resultado de una tarea lanzada con `Ejecutor::lanza`. Si la
/// sueltas, la tarea sigue: queda desligada.
pub struct Manija<T> {
    buzon: Arc<Mutex<Buzon<T>>>,
}

impl<T> Future for Manija<T> {
    type Output = T;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        let mut buzon = self.buzon.lock().unwrap();
        match buzon.valor.take() {
            Some(valor) => Poll::Ready(valor),
            None => {
                // Se guarda bajo el mismo candado con el que se mira: si la
                // tarea termina justo ahora, encontrará este Waker.
                buzon.quien_espera = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}

/// Envuelve `future` para que, al terminar, deje su valor en la manija y
/// despierte a quien la espera.
pub fn envuelve<F>(future: F) -> (impl Future<Output = ()> + Send + 'static, Manija<F::Output>)
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    let buzon = Arc::new(Mutex::new(Buzon { valor: None, quien_espera: None }));
    let del_envoltorio = Arc::clone(&buzon);
    let envoltorio = async move {
        let valor = future.await;
        let quien_espera = {
            let mut buzon = del_envoltorio.lock().unwrap();
            buzon.valor = Some(valor);
            buzon.quien_espera.take()
        };
        if let Some(waker) = quien_espera {
            waker.wake(); // fuera del candado
        }
    };
    (envoltorio, Manija { buzon })
}
