//! Respuesta incorrecta plausible: `con_combinadores` recoge el interior
//! entero con `collect` y después lo trocea. Da los mismos lotes con un
//! interior que se acaba, pero no entrega ninguno hasta el final: con un
//! interior que no se acaba nunca (un canal abierto), no entrega nada.

use std::pin::Pin;
use std::task::{Context, Poll};

use futures::{Stream, StreamExt};

pin_project_lite::pin_project! {
    /// Agrupa los elementos de `interior` en lotes de `tamano`.
    pub struct Lotes<S: Stream> {
        #[pin]
        interior: S,
        tamano: usize,
        lote: Vec<S::Item>,
        terminado: bool,
    }
}

impl<S: Stream> Lotes<S> {
    /// `tamano` tiene que ser al menos 1.
    pub fn new(interior: S, tamano: usize) -> Self {
        assert!(tamano > 0, "un lote tiene al menos un elemento");
        Lotes { interior, tamano, lote: Vec::with_capacity(tamano), terminado: false }
    }
}

impl<S: Stream> Stream for Lotes<S> {
    type Item = Vec<S::Item>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let mut este = self.project();
        if *este.terminado {
            return Poll::Ready(None);
        }
        loop {
            match este.interior.as_mut().poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(elemento)) => {
                    este.lote.push(elemento);
                    if este.lote.len() == *este.tamano {
                        let lleno = std::mem::replace(este.lote, Vec::with_capacity(*este.tamano));
                        return Poll::Ready(Some(lleno));
                    }
                }
                Poll::Ready(None) => {
                    *este.terminado = true;
                    let resto = std::mem::take(este.lote);
                    return Poll::Ready(if resto.is_empty() { None } else { Some(resto) });
                }
            }
        }
    }
}

/// Lo mismo que [`Lotes`], con un combinador de `futures::StreamExt` en vez
/// de un `poll_next` escrito a mano.
pub fn con_combinadores<S: Stream>(interior: S, tamano: usize) -> impl Stream<Item = Vec<S::Item>> {
    // Junta todo el interior y después lo trocea.
    futures::stream::once(async move {
        let todos: Vec<S::Item> = interior.collect().await;
        let mut lotes = Vec::new();
        let mut resto = todos.into_iter().peekable();
        while resto.peek().is_some() {
            lotes.push(resto.by_ref().take(tamano).collect::<Vec<_>>());
        }
        futures::stream::iter(lotes)
    })
    .flatten()
}
