//! Una `async fn` pequeña y la máquina de estados equivalente, escrita a mano.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::ceder::{Ceder, ceder};

// ANCHOR: async_fn
/// Calcula `2a + 3a` cediendo el control dos veces por el camino.
pub async fn dos_pasos(a: u32) -> u32 {
    let doble = a * 2;
    ceder().await; // punto de suspensión 1
    let triple = a * 3;
    ceder().await; // punto de suspensión 2
    doble + triple
}
// ANCHOR_END: async_fn

// ANCHOR: enum
/// Lo que el compilador genera para `dos_pasos`, escrito a mano: un estado
/// por punto de suspensión, y en cada estado solo lo que sigue vivo ahí.
pub enum DosPasos {
    /// Aún no se ha sondeado nunca: solo guarda el argumento.
    Inicio { a: u32 },
    /// Parado en el primer `.await`: `a` y `doble` siguen vivas.
    PrimeraEspera { a: u32, doble: u32, espera: Ceder },
    /// Parado en el segundo `.await`: `a` ya no hace falta.
    SegundaEspera { doble: u32, triple: u32, espera: Ceder },
    /// Ya devolvió `Ready`.
    Terminado,
}

impl DosPasos {
    pub fn new(a: u32) -> Self {
        DosPasos::Inicio { a }
    }
}

impl Future for DosPasos {
    type Output = u32;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
        // Cada vuelta del bucle avanza un estado. Se sale por un `return`:
        // `Pending` si el future de dentro no está listo, `Ready` al final.
        loop {
            match &mut *self {
                DosPasos::Inicio { a } => {
                    let a = *a;
                    let doble = a * 2;
                    *self = DosPasos::PrimeraEspera { a, doble, espera: ceder() };
                }
                DosPasos::PrimeraEspera { a, doble, espera } => {
                    if Pin::new(espera).poll(cx).is_pending() {
                        return Poll::Pending; // el estado queda guardado en `self`
                    }
                    let (a, doble) = (*a, *doble);
                    let triple = a * 3;
                    *self = DosPasos::SegundaEspera { doble, triple, espera: ceder() };
                }
                DosPasos::SegundaEspera { doble, triple, espera } => {
                    if Pin::new(espera).poll(cx).is_pending() {
                        return Poll::Pending;
                    }
                    let resultado = *doble + *triple;
                    *self = DosPasos::Terminado;
                    return Poll::Ready(resultado);
                }
                DosPasos::Terminado => panic!("DosPasos sondeado otra vez después de Ready"),
            }
        }
    }
}
// ANCHOR_END: enum

impl DosPasos {
    /// El nombre del estado actual, para la traza de la lección.
    pub fn estado(&self) -> &'static str {
        match self {
            DosPasos::Inicio { .. } => "Inicio",
            DosPasos::PrimeraEspera { .. } => "PrimeraEspera",
            DosPasos::SegundaEspera { .. } => "SegundaEspera",
            DosPasos::Terminado => "Terminado",
        }
    }
}

#[cfg(test)]
mod pruebas {
    use super::*;
    use crate::ejecutor::block_on;

    #[test]
    fn la_maquina_a_mano_da_lo_mismo_que_la_async_fn() {
        for a in [0, 1, 7, 1000] {
            assert_eq!(block_on(DosPasos::new(a)), block_on(dos_pasos(a)));
            assert_eq!(block_on(DosPasos::new(a)), 5 * a);
        }
    }

    #[test]
    fn pasa_por_los_estados_en_orden() {
        let waker = std::task::Waker::noop();
        let mut cx = Context::from_waker(waker);
        let mut f = DosPasos::new(2);
        let mut vistos = vec![f.estado()];
        while Pin::new(&mut f).poll(&mut cx).is_pending() {
            vistos.push(f.estado());
        }
        vistos.push(f.estado());
        assert_eq!(vistos, ["Inicio", "PrimeraEspera", "SegundaEspera", "Terminado"]);
    }
}
