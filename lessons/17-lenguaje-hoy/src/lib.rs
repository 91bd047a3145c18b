//! Lección 17: el lenguaje async hoy.
//!
//! `cargo run -p leccion-17 --release` mide lo que cuesta cada forma de
//! llamar a un método async de un *trait* (reservas de memoria por llamada y
//! tiempo), cuenta cuántas descargas hay en curso a la vez con y sin
//! `buffer_unordered`, y enseña `Pin::set` y la garantía de destrucción. Aquí
//! están las piezas: un asignador que cuenta reservas, los cinco *traits*, un
//! `Stream` escrito a mano y un *future* que envuelve a otro.

use std::alloc::{GlobalAlloc, Layout, System};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use futures::Stream;
use opciones::clap::{self, Parser};

/// Un asignador que delega en el del sistema y cuenta cuántas reservas le piden.
pub struct AsignadorContador;

static RESERVAS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for AsignadorContador {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        RESERVAS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: mismo contrato que `GlobalAlloc::alloc`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: mismo contrato que `GlobalAlloc::dealloc`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Reservas de memoria desde que empezó el programa (solo cuenta si el
/// binario instala [`AsignadorContador`] como `#[global_allocator]`).
pub fn reservas_hasta_ahora() -> u64 {
    RESERVAS.load(Ordering::Relaxed)
}

// ANCHOR: afit
/// Un método async en un *trait*, estable desde Rust 1.75. El aviso
/// `async_fn_in_trait` (que aquí se calla) dice justo lo que falta: quien
/// llama no puede exigir que el *future* devuelto sea `Send`.
#[allow(async_fn_in_trait)]
pub trait Almacen {
    async fn lee(&self, clave: u32) -> u64;
}
// ANCHOR_END: afit

// ANCHOR: send
/// La salida que no necesita ninguna dependencia: la firma sin azúcar sintáctico,
/// con la promesa `Send` escrita en el *trait*.
pub trait AlmacenEnviable {
    fn lee(&self, clave: u32) -> impl Future<Output = u64> + Send;
}

/// Lo mismo escrito por una macro: `trait_variant::make` deja el *trait*
/// local tal cual, crea `AlmacenSend`, con `+ Send` en cada método, y da
/// `AlmacenLocal` gratis a todo lo que implemente `AlmacenSend`.
#[trait_variant::make(AlmacenSend: Send)]
pub trait AlmacenLocal {
    async fn lee(&self, clave: u32) -> u64;
}
// ANCHOR_END: send

// ANCHOR: dyn
/// Para `dyn`, cada llamada devuelve su *future* en una caja.
pub trait AlmacenEnCaja {
    fn lee(&self, clave: u32) -> Pin<Box<dyn Future<Output = u64> + Send + '_>>;
}

/// Lo mismo, escrito por `async_trait`: el método se escribe como `async fn`
/// y la macro lo reescribe a la firma de arriba.
#[async_trait::async_trait]
pub trait AlmacenDyn {
    async fn lee(&self, clave: u32) -> u64;
}
// ANCHOR_END: dyn

/// El almacén de la lección: unos números en memoria. Cada lectura es un
/// cálculo pequeño, sin esperas, para que lo que se mida sea la llamada.
pub struct Memoria {
    pub datos: Vec<u64>,
}

impl Memoria {
    pub fn new(n: u64) -> Self {
        Memoria { datos: (0..n).map(|i| i * i + 1).collect() }
    }

    fn valor(&self, clave: u32) -> u64 {
        self.datos[clave as usize % self.datos.len()]
    }
}

impl Almacen for Memoria {
    async fn lee(&self, clave: u32) -> u64 {
        self.valor(clave)
    }
}

impl AlmacenEnviable for Memoria {
    // Un `async fn` en el impl cumple la firma del trait si su future es Send.
    async fn lee(&self, clave: u32) -> u64 {
        self.valor(clave)
    }
}

// Se implementa la variante `Send`; la macro da `AlmacenLocal` a todo lo que
// implementa `AlmacenSend`, así que implementarla también sería un conflicto.
impl AlmacenSend for Memoria {
    async fn lee(&self, clave: u32) -> u64 {
        self.valor(clave)
    }
}

impl AlmacenEnCaja for Memoria {
    fn lee(&self, clave: u32) -> Pin<Box<dyn Future<Output = u64> + Send + '_>> {
        Box::pin(async move { self.valor(clave) })
    }
}

#[async_trait::async_trait]
impl AlmacenDyn for Memoria {
    async fn lee(&self, clave: u32) -> u64 {
        self.valor(clave)
    }
}

/// Sondea una vez un *future* que ya está listo (los de la lección lo están
/// a la primera), sin *runtime*: así solo se mide la llamada.
pub fn listo<F: Future>(futuro: F) -> F::Output {
    let mut cx = Context::from_waker(std::task::Waker::noop());
    match std::pin::pin!(futuro).poll(&mut cx) {
        Poll::Ready(v) => v,
        Poll::Pending => panic!("los futures de la lección están listos a la primera"),
    }
}

// ANCHOR: cuenta
/// Un `Stream` escrito a mano: da `0, 1, ..., hasta - 1` y después `None`.
pub struct Cuenta {
    siguiente: u32,
    hasta: u32,
}

impl Cuenta {
    pub fn new(hasta: u32) -> Self {
        Cuenta { siguiente: 0, hasta }
    }
}

impl Stream for Cuenta {
    type Item = u32;

    fn poll_next(mut self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Option<u32>> {
        // `Cuenta` es `Unpin` (solo tiene dos números): `Pin` no le impide nada.
        if self.siguiente == self.hasta {
            return Poll::Ready(None);
        }
        self.siguiente += 1;
        Poll::Ready(Some(self.siguiente - 1))
    }
}
// ANCHOR_END: cuenta

// ANCHOR: cronometrado
pin_project_lite::pin_project! {
    /// Un *future* que envuelve a otro y cuenta cuántas veces lo sondean.
    /// El interior puede no ser `Unpin` (un bloque `async`), así que se
    /// accede a él con una proyección: `#[pin]` lo marca como anclado.
    pub struct Cronometrado<F> {
        #[pin]
        interior: F,
        sondeos: u32,
    }
}

impl<F> Cronometrado<F> {
    pub fn new(interior: F) -> Self {
        Cronometrado { interior, sondeos: 0 }
    }
}

impl<F: Future> Future for Cronometrado<F> {
    type Output = (F::Output, u32);

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let este = self.project(); // interior: Pin<&mut F>, sondeos: &mut u32
        *este.sondeos += 1;
        match este.interior.poll(cx) {
            Poll::Ready(valor) => Poll::Ready((valor, *este.sondeos)),
            Poll::Pending => Poll::Pending,
        }
    }
}
// ANCHOR_END: cronometrado

/// Opciones de la lección, leídas de la línea de órdenes.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(name = "leccion-17", about = "Async en el lenguaje de hoy: traits async, dyn, Send y su coste por llamada.")]
pub struct Opciones {
    /// Menos llamadas y esperas más cortas (lo que usan las pruebas)
    #[arg(long)]
    pub rapido: bool,
}

impl Opciones {
    /// Llamadas por ronda en la medida de coste por llamada.
    pub fn llamadas(&self) -> u32 {
        if self.rapido { 2_000 } else { 1_000_000 }
    }

    /// Rondas de cada variante, intercaladas.
    pub fn rondas(&self) -> u32 {
        5
    }

    /// Lo que tarda cada descarga de la tercera parte.
    pub fn descarga(&self) -> Duration {
        Duration::from_millis(if self.rapido { 1 } else { 10 })
    }
}

/// El capítulo del libro: cada bloque de Rust se compila como prueba de
/// documentación de este crate.
#[cfg(doctest)]
#[doc = include_str!("../../../book/17-lenguaje-hoy.md")]
pub struct CapituloDelLibro;

#[cfg(test)]
mod pruebas {
    use super::*;
    use futures::StreamExt;

    #[test]
    fn opciones() {
        let a = |v: &[&str]| opciones::lee::<Opciones>(v.iter().copied());
        assert_eq!(a(&[]).unwrap().llamadas(), 1_000_000);
        assert_eq!(a(&["--rapido"]).unwrap().llamadas(), 2_000);
        assert!(a(&["--lento"]).unwrap_err().contains("«--lento»"));
    }

    #[test]
    fn las_cinco_formas_leen_lo_mismo() {
        let m = Memoria::new(10);
        let esperado = m.valor(13);
        assert_eq!(listo(Almacen::lee(&m, 13)), esperado);
        assert_eq!(listo(AlmacenEnviable::lee(&m, 13)), esperado);
        assert_eq!(listo(AlmacenLocal::lee(&m, 13)), esperado);
        assert_eq!(listo(AlmacenSend::lee(&m, 13)), esperado);
        let en_caja: &dyn AlmacenEnCaja = &m;
        assert_eq!(listo(en_caja.lee(13)), esperado);
        let dinamico: &dyn AlmacenDyn = &m;
        assert_eq!(listo(dinamico.lee(13)), esperado);
    }

    #[test]
    fn cuenta_y_cronometrado() {
        let numeros: Vec<u32> = listo(Cuenta::new(4).collect());
        assert_eq!(numeros, [0, 1, 2, 3]);
        let ((), sondeos) = futures::executor::block_on(Cronometrado::new(async {
            tokio::task::yield_now().await;
        }));
        assert_eq!(sondeos, 2);
    }
}
