//! Las cuatro cargas del banco y el adaptador que pone a Tokio detrás de la
//! misma interfaz `Ejecutor` que nuestros dos ejecutores.

use std::future::Future;
use std::hint::black_box;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use crate::planificador::{Ejecutor, ceder};

// ANCHOR: tokio
/// El *runtime* multihilo de Tokio, visto como un `Ejecutor` más.
#[derive(Clone)]
pub struct Tokio {
    handle: tokio::runtime::Handle,
    runtime: Arc<Mutex<Option<tokio::runtime::Runtime>>>,
}

impl Tokio {
    pub fn nuevo(hilos: usize) -> Tokio {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(hilos.max(1))
            .thread_name("tokio-trab") // para encontrar sus hilos en /proc
            .enable_all() // E/S y temporizadores, como en un programa real
            .build()
            .expect("no se pudo crear el runtime de Tokio");
        Tokio { handle: runtime.handle().clone(), runtime: Arc::new(Mutex::new(Some(runtime))) }
    }
}

impl Ejecutor for Tokio {
    fn lanza_desligada<F>(&self, future: F)
    where
        F: Future<Output = ()> + Send + 'static,
    {
        drop(self.handle.spawn(future)); // soltar el JoinHandle desliga la tarea
    }

    fn bloquea_en<F: Future>(&self, future: F) -> F::Output {
        self.handle.block_on(future)
    }

    fn apaga(&self) {
        drop(self.runtime.lock().unwrap().take());
    }
}
// ANCHOR_END: tokio

/// Una cuenta atrás: cada tarea resta una y quien espera despierta al llegar a 0.
pub struct Cuenta {
    restantes: AtomicUsize,
    quien_espera: Mutex<Option<Waker>>,
}

impl Cuenta {
    pub fn nueva(n: usize) -> Arc<Cuenta> {
        Arc::new(Cuenta { restantes: AtomicUsize::new(n), quien_espera: Mutex::new(None) })
    }

    pub fn hecha(&self) {
        if self.restantes.fetch_sub(1, Ordering::AcqRel) == 1
            && let Some(waker) = self.quien_espera.lock().unwrap().take()
        {
            waker.wake();
        }
    }

    /// Un future que termina cuando la cuenta llega a 0.
    pub fn espera(self: &Arc<Self>) -> EsperaCuenta {
        EsperaCuenta(Arc::clone(self))
    }
}

pub struct EsperaCuenta(Arc<Cuenta>);

impl Future for EsperaCuenta {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut quien_espera = self.0.quien_espera.lock().unwrap();
        if self.0.restantes.load(Ordering::Acquire) == 0 {
            return Poll::Ready(());
        }
        *quien_espera = Some(cx.waker().clone());
        Poll::Pending
    }
}

/// Las cargas del banco.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carga {
    LanzaMuchas,
    Abanico,
    CedeMuchas,
    CalculoCorto,
}

impl Carga {
    pub const TODAS: [Carga; 4] = [Carga::LanzaMuchas, Carga::Abanico, Carga::CedeMuchas, Carga::CalculoCorto];

    pub fn nombre(self) -> &'static str {
        match self {
            Carga::LanzaMuchas => "lanza-muchas",
            Carga::Abanico => "abanico",
            Carga::CedeMuchas => "cede-muchas",
            Carga::CalculoCorto => "calculo-corto",
        }
    }

    pub fn descripcion(self, t: &Tamanos) -> String {
        match self {
            Carga::LanzaMuchas => format!("una tarea lanza {} tareas vacías", t.lanzadas),
            Carga::Abanico => format!(
                "árbol binario: cada tarea lanza dos hasta la profundidad {} ({} tareas)",
                t.profundidad,
                (1usize << (t.profundidad + 1)) - 1
            ),
            Carga::CedeMuchas => format!("{} tareas que ceden el control {} veces cada una", t.cedentes, t.cesiones),
            Carga::CalculoCorto => format!("{} tareas de cálculo ({} pasos de xorshift cada una)", t.calculos, t.pasos),
        }
    }
}

/// El tamaño de cada carga.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tamanos {
    pub lanzadas: usize,
    pub profundidad: u32,
    pub cedentes: usize,
    pub cesiones: usize,
    pub calculos: usize,
    pub pasos: u32,
}

impl Tamanos {
    pub fn normales() -> Tamanos {
        Tamanos { lanzadas: 100_000, profundidad: 16, cedentes: 1_000, cesiones: 200, calculos: 2_000, pasos: 20_000 }
    }

    pub fn rapidos() -> Tamanos {
        Tamanos { lanzadas: 1_000, profundidad: 8, cedentes: 20, cesiones: 20, calculos: 50, pasos: 1_000 }
    }
}

// ANCHOR: abanico
/// Un nodo del árbol: lanza sus dos hijos y se cuenta. (No es un `async fn`
/// porque se llama a sí misma: el tipo de su future sería infinito.)
#[allow(clippy::manual_async_fn)]
fn rama<E: Ejecutor>(ejecutor: E, profundidad: u32, cuenta: Arc<Cuenta>) -> impl Future<Output = ()> + Send {
    async move {
        if profundidad > 0 {
            for _ in 0..2 {
                ejecutor.lanza_desligada(rama(ejecutor.clone(), profundidad - 1, Arc::clone(&cuenta)));
            }
        }
        cuenta.hecha();
    }
}
// ANCHOR_END: abanico

/// Un cálculo corto que el compilador no puede quitar.
pub fn calcula(pasos: u32) -> u64 {
    let mut x = black_box(0x2545_F491_4F6C_DD1Du64);
    for _ in 0..pasos {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    black_box(x)
}

/// Ejecuta una carga de principio a fin en `ejecutor` y devuelve cuántas
/// tareas terminaron (para comprobar que no se perdió ninguna).
pub fn ejecuta<E: Ejecutor>(ejecutor: &E, carga: Carga, t: &Tamanos) -> usize {
    let e = ejecutor.clone();
    let (cuenta, total) = match carga {
        Carga::LanzaMuchas => {
            let cuenta = Cuenta::nueva(t.lanzadas);
            let (c, n) = (Arc::clone(&cuenta), t.lanzadas);
            ejecutor.lanza_desligada(async move {
                for _ in 0..n {
                    let c = Arc::clone(&c);
                    e.lanza_desligada(async move { c.hecha() });
                }
            });
            (cuenta, t.lanzadas)
        }
        Carga::Abanico => {
            let total = (1usize << (t.profundidad + 1)) - 1;
            let cuenta = Cuenta::nueva(total);
            ejecutor.lanza_desligada(rama(e, t.profundidad, Arc::clone(&cuenta)));
            (cuenta, total)
        }
        Carga::CedeMuchas => {
            let cuenta = Cuenta::nueva(t.cedentes);
            let (c, n, veces) = (Arc::clone(&cuenta), t.cedentes, t.cesiones);
            ejecutor.lanza_desligada(async move {
                for _ in 0..n {
                    let c = Arc::clone(&c);
                    e.lanza_desligada(async move {
                        for _ in 0..veces {
                            ceder().await;
                        }
                        c.hecha();
                    });
                }
            });
            (cuenta, t.cedentes)
        }
        Carga::CalculoCorto => {
            let cuenta = Cuenta::nueva(t.calculos);
            let (c, n, pasos) = (Arc::clone(&cuenta), t.calculos, t.pasos);
            ejecutor.lanza_desligada(async move {
                for _ in 0..n {
                    let c = Arc::clone(&c);
                    e.lanza_desligada(async move {
                        black_box(calcula(pasos));
                        c.hecha();
                    });
                }
            });
            (cuenta, t.calculos)
        }
    };
    ejecutor.bloquea_en(cuenta.espera());
    total
}
