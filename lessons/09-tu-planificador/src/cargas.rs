//! Las cuatro cargas del banco y el adaptador que pone a Tokio detrás de la
//! misma interfaz `Ejecutor` que nuestros dos ejecutores.

use std::future::Future;
use std::hint::black_box;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use medidas::entero;

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
            Carga::LanzaMuchas => format!("una tarea lanza {} tareas vacías", entero(t.lanzadas as u64)),
            Carga::Abanico => format!(
                "árbol binario: cada tarea lanza dos hasta la profundidad {} ({} tareas)",
                t.profundidad,
                entero(((1usize << (t.profundidad + 1)) - 1) as u64)
            ),
            Carga::CedeMuchas => format!(
                "{} tareas que ceden el control {} veces cada una",
                entero(t.cedentes as u64),
                entero(t.cesiones as u64)
            ),
            Carga::CalculoCorto => format!(
                "{} tareas de cálculo ({} pasos de xorshift cada una)",
                entero(t.calculos as u64),
                entero(u64::from(t.pasos))
            ),
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

/// Quién sondea cada tarea: para contar, hilo por hilo, a cuántas tareas
/// distintas llegó cada trabajador. Cada tarea se envuelve en [`Anotada`],
/// que en cada sondeo mira en qué hilo trabajador está (por el número del
/// final de su nombre: `robo-1` es el 1) y lo apunta.
pub struct QuienSondea {
    /// Por tarea, los trabajadores que la sondearon alguna vez (un bit cada uno).
    vistas: Vec<AtomicU64>,
    /// Por tarea, 1 + el trabajador que la sondeó primero (0: ninguno todavía).
    primera: Vec<AtomicUsize>,
    /// Por trabajador, cuántos sondeos hizo de tareas anotadas.
    sondeos: Vec<AtomicU64>,
}

/// Lo que vio un trabajador en una ejecución.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PorTrabajador {
    /// Tareas distintas que sondeó al menos una vez.
    pub tareas: usize,
    /// Tareas cuyo primer sondeo fue suyo.
    pub empezadas: usize,
    /// Sondeos que hizo.
    pub sondeos: u64,
}

/// El número del hilo trabajador actual (`robo-1` → 1), o `None` fuera de
/// un trabajador numerado (Tokio llama a todos igual).
fn trabajador_actual() -> Option<usize> {
    std::thread::current().name()?.rsplit('-').next()?.parse().ok()
}

impl QuienSondea {
    /// Para `tareas` tareas y hasta 64 trabajadores.
    pub fn nuevo(tareas: usize, trabajadores: usize) -> Arc<QuienSondea> {
        assert!(trabajadores <= 64, "la máscara de cada tarea tiene 64 bits");
        Arc::new(QuienSondea {
            vistas: (0..tareas).map(|_| AtomicU64::new(0)).collect(),
            primera: (0..tareas).map(|_| AtomicUsize::new(0)).collect(),
            sondeos: (0..trabajadores).map(|_| AtomicU64::new(0)).collect(),
        })
    }

    fn anota(&self, tarea: usize) {
        let Some(w) = trabajador_actual().filter(|w| *w < self.sondeos.len()) else { return };
        self.sondeos[w].fetch_add(1, Ordering::Relaxed);
        self.vistas[tarea].fetch_or(1 << w, Ordering::Relaxed);
        let _ = self.primera[tarea].compare_exchange(0, w + 1, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// El trabajador que sondeó primero la tarea `tarea`, si alguno lo hizo.
    pub fn primero_de(&self, tarea: usize) -> Option<usize> {
        self.primera[tarea].load(Ordering::Relaxed).checked_sub(1)
    }

    /// Lo que vio cada trabajador, sin contar las tareas de `excluidas`.
    pub fn por_trabajador(&self, excluidas: &[usize]) -> Vec<PorTrabajador> {
        let mut salida = vec![PorTrabajador::default(); self.sondeos.len()];
        for (w, p) in salida.iter_mut().enumerate() {
            p.sondeos = self.sondeos[w].load(Ordering::Relaxed);
        }
        for t in (0..self.vistas.len()).filter(|t| !excluidas.contains(t)) {
            let vistas = self.vistas[t].load(Ordering::Relaxed);
            for (w, p) in salida.iter_mut().enumerate() {
                p.tareas += usize::from(vistas & (1 << w) != 0);
            }
            if let Some(w) = self.primero_de(t) {
                salida[w].empezadas += 1;
            }
        }
        salida
    }
}

// ANCHOR: anotada
/// Un *future* que apunta en `quien` cada vez que lo sondean.
pub struct Anotada {
    tarea: usize,
    quien: Arc<QuienSondea>,
    future: Pin<Box<dyn Future<Output = ()> + Send>>,
}

impl Future for Anotada {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        self.quien.anota(self.tarea);
        self.future.as_mut().poll(cx)
    }
}
// ANCHOR_END: anotada

/// Como [`ejecuta`], pero cada tarea va envuelta en [`Anotada`]: la tarea
/// que lanza a las demás es la número `n` (la última), y sus hijas, de la 0
/// a la `n - 1`. Solo para las cargas en las que una tarea lanza a todas
/// (no el abanico). No sirve para medir tiempos: anotar cuesta.
pub fn ejecuta_anotada<E: Ejecutor>(ejecutor: &E, carga: Carga, t: &Tamanos, quien: &Arc<QuienSondea>) -> usize {
    let n = match carga {
        Carga::LanzaMuchas => t.lanzadas,
        Carga::CedeMuchas => t.cedentes,
        Carga::CalculoCorto => t.calculos,
        Carga::Abanico => panic!("ejecuta_anotada no sabe numerar el árbol del abanico"),
    };
    assert!(quien.vistas.len() > n, "QuienSondea necesita sitio para {} tareas", n + 1);
    let cuenta = Cuenta::nueva(n);
    let (e, c, q) = (ejecutor.clone(), Arc::clone(&cuenta), Arc::clone(quien));
    let (veces, pasos) = (t.cesiones, t.pasos);
    let lanzadora = async move {
        for i in 0..n {
            let c = Arc::clone(&c);
            let hija: Pin<Box<dyn Future<Output = ()> + Send>> = match carga {
                Carga::CedeMuchas => Box::pin(async move {
                    for _ in 0..veces {
                        ceder().await;
                    }
                    c.hecha();
                }),
                Carga::CalculoCorto => Box::pin(async move {
                    black_box(calcula(pasos));
                    c.hecha();
                }),
                _ => Box::pin(async move { c.hecha() }),
            };
            e.lanza_desligada(Anotada { tarea: i, quien: Arc::clone(&q), future: hija });
        }
    };
    ejecutor.lanza_desligada(Anotada { tarea: n, quien: Arc::clone(quien), future: Box::pin(lanzadora) });
    ejecutor.bloquea_en(cuenta.espera());
    n
}
