//! Lección 07: el `JoinHandle`, recoger, cancelar, observar.
//!
//! `cargo run -p leccion-07 --release` enseña, una por una, las cosas que
//! pueden pasarle a una tarea después de `tokio::spawn`. Aquí están las
//! piezas que el programa necesita para verlas: una guarda que cuenta cuándo
//! se suelta un *future*, un *future* que cuenta sus sondeos y la forma de
//! leer un `JoinError`.

use std::any::Any;
use std::fmt::Debug;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use opciones::clap::{self, Parser};
use tokio::task::JoinError;

// ANCHOR: guarda
/// Una guarda: cuando se suelta (al terminar la tarea o al cancelarla, porque
/// cancelar es soltar el *future*), suma uno al contador que comparte.
pub struct Guarda(pub Arc<AtomicUsize>);

impl Drop for Guarda {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}
// ANCHOR_END: guarda

/// Envuelve un *future* y cuenta cuántas veces lo sondean.
pub struct CuentaSondeos<F> {
    interior: Pin<Box<F>>,
    sondeos: Arc<AtomicUsize>,
}

impl<F> CuentaSondeos<F> {
    pub fn new(interior: F, sondeos: Arc<AtomicUsize>) -> Self {
        CuentaSondeos { interior: Box::pin(interior), sondeos }
    }
}

impl<F: Future> Future for CuentaSondeos<F> {
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        self.sondeos.fetch_add(1, Ordering::SeqCst);
        self.interior.as_mut().poll(cx)
    }
}

// ANCHOR: mensaje
/// El texto de un pánico. `panic!("fijo")` lleva un `&'static str`;
/// `panic!("con {}", x)` lleva un `String`; `panic_any(v)` lleva lo que sea.
pub fn mensaje_de_panico(carga: Box<dyn Any + Send>) -> String {
    if let Some(texto) = carga.downcast_ref::<&'static str>() {
        texto.to_string()
    } else if let Some(texto) = carga.downcast_ref::<String>() {
        texto.clone()
    } else {
        "(pánico sin mensaje de texto)".to_string()
    }
}
// ANCHOR_END: mensaje

/// Cómo terminó una tarea, en una frase: lo que dio su `JoinHandle`.
pub fn desenlace<T: Debug>(resultado: Result<T, JoinError>) -> String {
    match resultado {
        Ok(valor) => format!("Ok({valor:?}), terminó normalmente"),
        Err(error) if error.is_cancelled() => "Err, is_cancelled() = true: cancelada".to_string(),
        Err(error) => match error.try_into_panic() {
            Ok(carga) => format!("Err, is_panic() = true: «{}»", mensaje_de_panico(carga)),
            Err(otro) => format!("Err: {otro}"),
        },
    }
}

/// Opciones de la lección, leídas de la línea de órdenes.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(name = "leccion-07", about = "Lo que un JoinHandle devuelve, lo que abort() hace y lo que no puede hacer.")]
pub struct Opciones {
    /// Un bucle de CPU más corto (lo que usan las pruebas)
    #[arg(long)]
    pub rapido: bool,
}

impl Opciones {
    /// Cuánto dura el bucle de CPU que no se deja abortar.
    pub fn bucle(&self) -> Duration {
        Duration::from_millis(if self.rapido { 40 } else { 300 })
    }

    /// Cuándo, desde que empieza el bucle, otro hilo pide el `abort`.
    pub fn espera_abort(&self) -> Duration {
        Duration::from_millis(if self.rapido { 5 } else { 30 })
    }
}

/// Milisegundos, para imprimir.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// El capítulo del libro: cada bloque de Rust se compila como prueba de
/// documentación de este crate, que ya tiene Tokio entre sus dependencias.
#[cfg(doctest)]
#[doc = include_str!("../../../book/07-joinhandle.md")]
pub struct CapituloDelLibro;

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn opciones() {
        let a = |v: &[&str]| opciones::lee::<Opciones>(v.iter().copied());
        assert_eq!(a(&[]).unwrap().bucle(), Duration::from_millis(300));
        assert_eq!(a(&["--rapido"]).unwrap().bucle(), Duration::from_millis(40));
        assert!(a(&["--lento"]).unwrap_err().contains("desconocida"));
    }

    #[test]
    fn mensajes_de_panico() {
        assert_eq!(mensaje_de_panico(Box::new("fijo")), "fijo");
        assert_eq!(mensaje_de_panico(Box::new(String::from("con 2"))), "con 2");
        assert_eq!(mensaje_de_panico(Box::new(42u8)), "(pánico sin mensaje de texto)");
    }

    #[tokio::test]
    async fn la_guarda_cuenta_al_soltar() {
        let soltadas = Arc::new(AtomicUsize::new(0));
        let guarda = Guarda(soltadas.clone());
        let tarea = tokio::spawn(async move {
            let _g = guarda;
            tokio::time::sleep(Duration::from_secs(3600)).await;
        });
        tokio::task::yield_now().await;
        tarea.abort();
        assert!(tarea.await.unwrap_err().is_cancelled());
        assert_eq!(soltadas.load(Ordering::SeqCst), 1);
    }
}
