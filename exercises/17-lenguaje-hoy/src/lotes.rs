//! Ejercicio 2: un `Stream` escrito a mano, con una proyección de `Pin`.
//!
//! `Lotes` envuelve otro `Stream` y agrupa sus elementos en lotes de
//! `tamano`: de `1, 2, 3, 4, 5, 6, 7` con `tamano = 3` salen `[1, 2, 3]`,
//! `[4, 5, 6]` y `[7]`. Escribe `poll_next`:
//!
//! - un lote sale cuando está lleno, o cuando el interior se acaba y quedan
//!   elementos (el último puede ser más corto); nunca sale un lote vacío;
//! - si el interior está `Pending`, `Lotes` también: no entrega medio lote,
//!   y el interior es quien despierta a la tarea (dale tu `cx`);
//! - cuando el interior da `None`, `Lotes` da `None` desde entonces, sin
//!   volver a sondear el interior.
//!
//! El interior puede no ser `Unpin` (un `Stream` hecho con `async`), así
//! que no vale `Pin::new(&mut self.interior)`: hace falta una proyección.
//! Puedes cambiar la definición del struct (el crate ya depende de
//! `pin-project-lite`), pero no la firma de `new` ni la de `poll_next`.
//!
//! Después, escribe `con_combinadores`: lo mismo, sin ningún `poll_next`,
//! con un combinador de `futures::StreamExt`. Hay dos que se parecen, y
//! solo uno espera a llenar el lote.

use std::pin::Pin;
use std::task::{Context, Poll};

use futures::Stream;

/// Agrupa los elementos de `interior` en lotes de `tamano`.
pub struct Lotes<S: Stream> {
    interior: S,
    tamano: usize,
    lote: Vec<S::Item>,
    terminado: bool,
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
        let _ = (&self.interior, self.tamano, &self.lote, self.terminado, cx);
        todo!("todavía sin resolver: agrupa los elementos del interior en lotes")
    }
}

/// Lo mismo que [`Lotes`], con un combinador de `futures::StreamExt` en vez
/// de un `poll_next` escrito a mano.
pub fn con_combinadores<S: Stream>(interior: S, tamano: usize) -> impl Stream<Item = Vec<S::Item>> {
    let _ = tamano;
    futures::stream::once(async move {
        let _ = interior;
        todo!("todavía sin resolver: busca el combinador de StreamExt que hace lotes")
    })
}
