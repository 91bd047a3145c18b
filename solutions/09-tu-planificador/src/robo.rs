//! Versión (b): una cola local acotada por trabajador, una cola global de
//! inyección, robo de la mitad a una víctima elegida al azar, una ranura
//! LIFO con tope y una mirada a la cola global cada `INTERVALO_GLOBAL`
//! vueltas. Los trabajadores sin nada que hacer duermen en una `Condvar`.
//!
//! Las cuatro piezas de los ejercicios viven en sus propios archivos:
//! `roba.rs` (robar la mitad), `siguiente.rs` (la ranura LIFO),
//! `equidad.rs` (qué cola mirar en cada vuelta) y `aparca.rs` (dormir sin
//! perder avisos). Este archivo tiene todo lo demás, y es el mismo para el
//! ejercicio y para la solución: `exercises/09-tu-planificador` lo usa desde
//! aquí con `#[path]`, junto con el resto del andamiaje de esta carpeta.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::{self, JoinHandle};

use super::aparca::aparca;
use super::azar::XorShift;
use super::bloqueo::Vigia;
use super::ejecutor::Ejecutor;
use super::roba::roba_mitad;
use super::tarea::{Destino, Tarea};

/// Anota un evento en la traza, si se compiló con la *feature* `traza` y
/// este ejecutor graba. Sin la *feature*, no queda nada en el binario.
macro_rules! anota {
    ($compartido:expr, |$registro:ident| $cuerpo:expr) => {
        #[cfg(feature = "traza")]
        if let Some($registro) = &$compartido.traza {
            $cuerpo;
        }
    };
}

// ANCHOR: constantes
/// Capacidad de cada cola local, como en Tokio (`LOCAL_QUEUE_CAPACITY` en `queue.rs`).
pub const CAPACIDAD_LOCAL: usize = 256;
/// Sondeos seguidos que puede dar la ranura LIFO, como en Tokio desde 1.29 (`MAX_LIFO_POLLS_PER_TICK`).
pub const MAX_LIFO_SEGUIDAS: u32 = 3;
/// Cada cuántas vueltas se mira primero la cola global. Tokio usó 61 fijo;
/// hoy lo ajusta solo (`stats.rs`). Aquí, fijo.
pub const INTERVALO_GLOBAL: u32 = 61;
/// Lo más que un trabajador se lleva de la cola global de una vez (`next_task` en `worker.rs`).
pub const MAX_LOTE: usize = CAPACIDAD_LOCAL / 2;
// ANCHOR_END: constantes

/// Una cola local. En Tokio es un anillo sin candados en el que solo su
/// dueño empuja; aquí, para que se lea fácil, un `VecDeque` con su `Mutex`.
pub type ColaLocal = Mutex<VecDeque<Arc<Tarea>>>;

/// Lo que cuenta el ejecutor, para que la lección pueda enseñarlo.
#[derive(Debug, Default)]
pub struct Contadores {
    /// Robos que consiguieron algo.
    pub robos: AtomicU64,
    /// Tareas robadas en total.
    pub robadas: AtomicU64,
    /// Veces que una cola local llena mandó la mitad a la cola global.
    pub desbordes: AtomicU64,
    /// Tareas sacadas de la cola global por los trabajadores.
    pub del_inyector: AtomicU64,
    /// Veces que alguien miró si había trabajo (`hay_trabajo`). Un
    /// trabajador dormido no mira nada: si esto crece sin trabajo, alguien
    /// da vueltas o se despierta sin motivo.
    pub comprobaciones: AtomicU64,
}

// ANCHOR: compartido
/// Lo que comparten todos los trabajadores.
pub struct Compartido {
    /// Una cola por trabajador. Los demás solo entran a robar.
    pub locales: Vec<ColaLocal>,
    /// La cola global de inyección: tareas lanzadas o despertadas desde
    /// fuera de los trabajadores, y las que desbordan una cola local.
    pub inyector: Mutex<VecDeque<Arc<Tarea>>>,
    /// El candado con el que se duerme y se avisa.
    pub dormitorio: Mutex<()>,
    pub despertador: Condvar,
    /// Cuántos trabajadores duermen (o van a dormir). Solo cambia con
    /// `dormitorio` tomado; se lee sin él para no tomarlo en cada `push`.
    pub dormidos: AtomicUsize,
    pub apagado: AtomicBool,
    pub contadores: Contadores,
    vigia: Vigia,
    hilos: Mutex<Vec<JoinHandle<()>>>,
    siguiente_id: AtomicUsize,
    /// La grabación de eventos, si este ejecutor graba (`traza.rs`).
    #[cfg(feature = "traza")]
    pub(crate) traza: Option<Arc<super::traza::Registro>>,
}
// ANCHOR_END: compartido

// ANCHOR: trabajador
/// El estado privado de un hilo trabajador: nadie más lo toca.
pub struct Trabajador {
    pub indice: usize,
    /// La última tarea despertada por este trabajador. No se puede robar.
    pub ranura_lifo: Option<Arc<Tarea>>,
    /// Cuántas tareas seguidas han salido de la ranura.
    pub lifo_seguidas: u32,
    /// Vueltas del bucle: una por tarea elegida.
    pub tick: u32,
    pub azar: XorShift,
    /// Un `Vec` de repuesto para vaciar la bandeja sin reservar memoria.
    repuesto: Vec<Arc<Tarea>>,
}
// ANCHOR_END: trabajador

impl Compartido {
    /// El estado compartido de `trabajadores` trabajadores, sin hilos. Las
    /// pruebas lo usan para llamar a cada paso a mano.
    pub fn nuevo(trabajadores: usize) -> Arc<Compartido> {
        let trabajadores = trabajadores.max(1);
        Arc::new(Compartido {
            locales: (0..trabajadores).map(|_| Mutex::new(VecDeque::with_capacity(CAPACIDAD_LOCAL))).collect(),
            inyector: Mutex::new(VecDeque::new()),
            dormitorio: Mutex::new(()),
            despertador: Condvar::new(),
            dormidos: AtomicUsize::new(0),
            apagado: AtomicBool::new(false),
            contadores: Contadores::default(),
            vigia: Vigia::default(),
            hilos: Mutex::new(Vec::new()),
            siguiente_id: AtomicUsize::new(0),
            #[cfg(feature = "traza")]
            traza: None,
        })
    }

    /// Como `nuevo`, pero grabando cada evento en `registro`.
    #[cfg(feature = "traza")]
    pub(crate) fn grabando(trabajadores: usize, registro: Arc<super::traza::Registro>) -> Arc<Compartido> {
        let mut compartido = Compartido::nuevo(trabajadores);
        Arc::get_mut(&mut compartido).expect("recién creado").traza = Some(registro);
        compartido
    }

    // ANCHOR: empuja_local
    /// Pone una tarea al final de la cola local de `indice`. Si está llena,
    /// la mitad más nueva (la de atrás) y la nueva se van a la cola global,
    /// como en Tokio; la mitad más antigua se queda.
    pub fn empuja_local(&self, indice: usize, tarea: Arc<Tarea>) {
        anota!(self, |r| r.va_a_la_cola(indice, tarea.id));
        let (estaba_vacia, desbordadas) = {
            let mut cola = self.locales[indice].lock().unwrap();
            let estaba_vacia = cola.is_empty();
            if cola.len() < CAPACIDAD_LOCAL {
                cola.push_back(tarea);
                (estaba_vacia, None)
            } else {
                // Se va la mitad de atrás: las que `toma_lote_del_inyector`
                // acaba de traer de la cola global quedan delante y no vuelven
                // a ella sin haberse sondeado.
                let mut mitad: Vec<Arc<Tarea>> = cola.drain(CAPACIDAD_LOCAL / 2..).collect();
                mitad.push(tarea);
                (false, Some(mitad))
            }
        }; // un candado cada vez: el de la cola local se suelta aquí
        if let Some(mitad) = desbordadas {
            self.contadores.desbordes.fetch_add(1, Ordering::Relaxed);
            self.inyector.lock().unwrap().extend(mitad);
            self.avisa_a_un_dormido();
        } else if estaba_vacia {
            // Hay algo que robar donde antes no había nada: si alguien
            // duerme, que despierte. Con la cola ya ocupada no se avisa otra
            // vez: el dueño está despierto y nada se queda sin sondear.
            self.avisa_a_un_dormido();
        }
        anota!(self, |r| r.en_la_cola(self, indice));
    }
    // ANCHOR_END: empuja_local

    /// Saca la tarea más antigua de la cola local de `indice`.
    pub fn saca_local(&self, indice: usize) -> Option<Arc<Tarea>> {
        self.locales[indice].lock().unwrap().pop_front()
    }

    /// Pone una tarea en la cola global y, si estaba vacía, despierta a un
    /// trabajador dormido.
    pub fn inyecta(&self, tarea: Arc<Tarea>) {
        anota!(self, |r| r.va_a_la_global(tarea.id));
        let estaba_vacia = {
            let mut inyector = self.inyector.lock().unwrap();
            inyector.push_back(tarea);
            inyector.len() == 1
        };
        anota!(self, |r| r.en_la_global(self));
        // Si ya había tareas, alguien fue avisado por la primera, y ningún
        // trabajador se duerme mientras la cola global no esté vacía.
        if estaba_vacia {
            self.avisa_a_un_dormido();
        }
    }

    /// Saca una sola tarea de la cola global (la mirada de cada
    /// `INTERVALO_GLOBAL` vueltas).
    pub fn saca_del_inyector(&self) -> Option<Arc<Tarea>> {
        let tarea = self.inyector.lock().unwrap().pop_front();
        if let Some(_t) = &tarea {
            self.contadores.del_inyector.fetch_add(1, Ordering::Relaxed);
            anota!(self, |r| r.de_la_global(self, _t.id));
        }
        tarea
    }

    // ANCHOR: lote
    /// Con la cola local vacía: se lleva de la cola global un lote de
    /// `min(len / trabajadores + 1, MAX_LOTE)` tareas, como `next_task` en Tokio. Devuelve
    /// la primera para sondearla ya; el resto va a la cola local de `indice`.
    pub fn toma_lote_del_inyector(&self, indice: usize) -> Option<Arc<Tarea>> {
        let lote: Vec<Arc<Tarea>> = {
            let mut inyector = self.inyector.lock().unwrap();
            let n = (inyector.len() / self.locales.len() + 1).min(MAX_LOTE).min(inyector.len());
            inyector.drain(..n).collect()
        };
        self.contadores.del_inyector.fetch_add(lote.len() as u64, Ordering::Relaxed);
        let mut lote = lote.into_iter();
        let primera = lote.next()?;
        self.locales[indice].lock().unwrap().extend(lote);
        anota!(self, |r| r.lote(self, indice, primera.id));
        Some(primera)
    }
    // ANCHOR_END: lote

    /// ¿Hay alguna tarea en la cola global o en alguna cola local? (Las
    /// ranuras LIFO no cuentan: solo puede sondearlas su dueño.)
    pub fn hay_trabajo(&self) -> bool {
        self.contadores.comprobaciones.fetch_add(1, Ordering::Relaxed);
        !self.inyector.lock().unwrap().is_empty() || self.locales.iter().any(|c| !c.lock().unwrap().is_empty())
    }

    // ANCHOR: avisa
    /// Despierta a un trabajador dormido, si hay alguno.
    pub fn avisa_a_un_dormido(&self) {
        if self.dormidos.load(Ordering::SeqCst) > 0 {
            // Tomar el candado garantiza que quien se apuntó como dormido ya
            // está dentro de `wait`, y no a medio camino.
            let _dormitorio = self.dormitorio.lock().unwrap();
            self.despertador.notify_one();
            anota!(self, |r| r.aviso());
        }
    }
    // ANCHOR_END: avisa

    pub fn apagado(&self) -> bool {
        self.apagado.load(Ordering::SeqCst)
    }

    /// Marca el apagado y despierta a todos los que duermen.
    pub fn pide_apagado(&self) {
        self.apagado.store(true, Ordering::SeqCst);
        let _dormitorio = self.dormitorio.lock().unwrap();
        self.despertador.notify_all();
    }
}

// ANCHOR: bandeja
thread_local! {
    /// Las tareas que el hilo trabajador actual ha despertado (o lanzado)
    /// mientras sondeaba una tarea. `ejecutor` identifica a su ejecutor.
    static BANDEJA: RefCell<Option<Bandeja>> = const { RefCell::new(None) };
}

struct Bandeja {
    ejecutor: *const Compartido,
    tareas: Vec<Arc<Tarea>>,
}

impl Destino for Compartido {
    fn programa(&self, tarea: Arc<Tarea>) {
        // ¿La despierta un trabajador de este ejecutor mientras sondea?
        // Entonces a su bandeja, y de ahí a su ranura LIFO. Si no (otro
        // hilo, otro ejecutor), a la cola global.
        let mut tarea = Some(tarea);
        let _ = BANDEJA.try_with(|bandeja| {
            if let Some(b) = bandeja.borrow_mut().as_mut()
                && std::ptr::eq(b.ejecutor, self)
            {
                b.tareas.push(tarea.take().unwrap());
            }
        });
        if let Some(tarea) = tarea {
            self.inyecta(tarea);
        }
    }
}
// ANCHOR_END: bandeja

impl Trabajador {
    /// Un trabajador vacío. La semilla elige la secuencia de víctimas.
    pub fn nuevo(indice: usize, semilla: u64) -> Trabajador {
        Trabajador {
            indice,
            ranura_lifo: None,
            lifo_seguidas: 0,
            tick: 0,
            azar: XorShift::new(semilla),
            repuesto: Vec::new(),
        }
    }

    // ANCHOR: roba
    /// Busca a quién robar: recorre a los demás trabajadores empezando por
    /// uno al azar y se queda con el primer robo que consigue algo.
    pub fn roba(&mut self, compartido: &Compartido) -> Option<Arc<Tarea>> {
        let n = compartido.locales.len();
        let inicio = self.azar.hasta(n);
        let antes = compartido.locales[self.indice].lock().unwrap().len();
        for i in 0..n {
            let victima = (inicio + i) % n;
            if victima == self.indice {
                continue;
            }
            if let Some(tarea) = roba_mitad(&compartido.locales[victima], &compartido.locales[self.indice]) {
                let despues = compartido.locales[self.indice].lock().unwrap().len();
                let c = &compartido.contadores;
                c.robos.fetch_add(1, Ordering::Relaxed);
                c.robadas.fetch_add((despues.saturating_sub(antes) + 1) as u64, Ordering::Relaxed);
                anota!(compartido, |r| r.robo(
                    compartido,
                    self.indice,
                    victima,
                    tarea.id,
                    despues.saturating_sub(antes) + 1
                ));
                return Some(tarea);
            }
        }
        None
    }
    // ANCHOR_END: roba

    // ANCHOR: recoge
    /// Después de cada sondeo: coloca lo que el trabajador despertó mientras
    /// sondeaba `recien`. Una tarea que se despertó a sí misma está cediendo
    /// el control, y va al final de la cola local (como en Tokio); las demás
    /// pasan por la ranura LIFO.
    fn recoge_despertadas(&mut self, compartido: &Compartido, recien: &Arc<Tarea>) {
        let mut despertadas = std::mem::take(&mut self.repuesto);
        BANDEJA.with(|b| std::mem::swap(&mut b.borrow_mut().as_mut().unwrap().tareas, &mut despertadas));
        for tarea in despertadas.drain(..) {
            if Arc::ptr_eq(&tarea, recien) {
                anota!(compartido, |r| r.entra(self.indice, tarea.id, false));
                compartido.empuja_local(self.indice, tarea);
            } else {
                anota!(compartido, |r| r.entra(self.indice, tarea.id, true));
                self.pon_en_ranura(compartido, tarea);
                anota!(compartido, |r| r.en_ranura(compartido, self.indice));
            }
        }
        self.repuesto = despertadas; // vacío, pero con su memoria
    }
    // ANCHOR_END: recoge

    // ANCHOR: bucle
    /// El bucle de cada hilo trabajador.
    fn bucle(mut self, compartido: Arc<Compartido>) {
        let _guarda = compartido.vigia.guarda();
        let ejecutor = Arc::as_ptr(&compartido);
        BANDEJA.with(|b| *b.borrow_mut() = Some(Bandeja { ejecutor, tareas: Vec::new() }));
        while !compartido.apagado() {
            if !self.vuelta(&compartido) {
                anota!(compartido, |r| r.duerme(&compartido, self.indice));
                aparca(&compartido);
                anota!(compartido, |r| r.despierta(&compartido, self.indice));
            }
        }
        // Al apagar: nada de lo que quede en la ranura se volverá a sondear.
        BANDEJA.with(|b| b.borrow_mut().take());
        if let Some(tarea) = self.ranura_lifo.take() {
            tarea.descarta();
        }
    }

    /// Una vuelta del bucle: busca una tarea, la sondea y coloca lo que
    /// despertó. Devuelve `false` si no encontró nada que hacer. (La
    /// grabación paso a paso de `traza.rs` llama a esta misma función.)
    pub(crate) fn vuelta(&mut self, compartido: &Compartido) -> bool {
        anota!(compartido, |r| r.empieza_vuelta(self.indice));
        let Some(tarea) = self.busca_tarea(compartido) else {
            return false;
        };
        anota!(compartido, |r| r.sondea(compartido, self.indice, tarea.id));
        let _terminada = tarea.sondea();
        anota!(compartido, |r| r.sondeada(compartido, self.indice, tarea.id, _terminada));
        self.recoge_despertadas(compartido, &tarea);
        true
    }
    // ANCHOR_END: bucle
}

/// Pone la bandeja de `compartido` en el hilo actual (para `traza.rs`, que
/// mueve a todos los trabajadores desde un solo hilo).
#[cfg(feature = "traza")]
pub(crate) fn pon_bandeja(compartido: &Arc<Compartido>) {
    let ejecutor = Arc::as_ptr(compartido);
    BANDEJA.with(|b| *b.borrow_mut() = Some(Bandeja { ejecutor, tareas: Vec::new() }));
}

/// Quita la bandeja del hilo actual.
#[cfg(feature = "traza")]
pub(crate) fn quita_bandeja() {
    BANDEJA.with(|b| b.borrow_mut().take());
}

/// El ejecutor con robo de trabajo. Clónalo para lanzar tareas desde otras tareas.
#[derive(Clone)]
pub struct Robo {
    compartido: Arc<Compartido>,
}

impl Robo {
    /// Arranca `hilos` hilos trabajadores (al menos uno).
    pub fn nuevo(hilos: usize) -> Robo {
        Robo::arranca(Compartido::nuevo(hilos))
    }

    fn arranca(compartido: Arc<Compartido>) -> Robo {
        let mut lanzados = Vec::new();
        for indice in 0..compartido.locales.len() {
            let compartido = Arc::clone(&compartido);
            // Semillas distintas por trabajador (constante de Fibonacci).
            let semilla = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(indice as u64 + 1);
            let hilo = thread::Builder::new()
                .name(format!("robo-{indice}"))
                .spawn(move || Trabajador::nuevo(indice, semilla).bucle(compartido))
                .expect("no se pudo crear un hilo trabajador");
            lanzados.push(hilo);
        }
        *compartido.hilos.lock().unwrap() = lanzados;
        Robo { compartido }
    }

    /// Como `nuevo`, pero grabando en `registro` cuándo sondea cada
    /// trabajador y cuándo duerme (la traza en vivo de `traza.rs`).
    #[cfg(feature = "traza")]
    pub fn grabando(hilos: usize, registro: Arc<super::traza::Registro>) -> Robo {
        Robo::arranca(Compartido::grabando(hilos, registro))
    }

    /// Un ejecutor sin hilos: sus trabajadores los mueve, paso a paso, quien
    /// lo graba (`traza.rs`).
    #[cfg(feature = "traza")]
    pub(crate) fn sin_hilos(compartido: Arc<Compartido>) -> Robo {
        Robo { compartido }
    }

    /// Robos, desbordes y visitas a la cola global desde que arrancó.
    pub fn contadores(&self) -> &Contadores {
        &self.compartido.contadores
    }

    /// Cuántos trabajadores duermen ahora mismo (para las pruebas).
    pub fn dormidos(&self) -> usize {
        self.compartido.dormidos.load(Ordering::SeqCst)
    }

    /// ¿Ha muerto algún hilo trabajador por un pánico? (Para las pruebas:
    /// así no esperan en balde a un trabajador que ya no existe.)
    pub fn roto(&self) -> bool {
        self.compartido.vigia.roto()
    }
}

impl Ejecutor for Robo {
    fn lanza_desligada<F>(&self, future: F)
    where
        F: Future<Output = ()> + Send + 'static,
    {
        let id = self.compartido.siguiente_id.fetch_add(1, Ordering::Relaxed);
        anota!(self.compartido, |r| r.nueva(id));
        let destino: Arc<dyn Destino> = self.compartido.clone();
        // Lanzar es despertar por primera vez: desde un trabajador, a su
        // ranura LIFO (como en Tokio); desde fuera, a la cola global.
        Tarea::nueva(id, Box::pin(future), destino).despierta();
    }

    fn bloquea_en<F: Future>(&self, future: F) -> F::Output {
        self.compartido.vigia.bloquea_en(future)
    }

    fn apaga(&self) {
        self.compartido.pide_apagado();
        let hilos = std::mem::take(&mut *self.compartido.hilos.lock().unwrap());
        let yo = thread::current().id();
        for hilo in hilos {
            if hilo.thread().id() != yo {
                let _ = hilo.join();
            }
        }
        // Suelta lo que quedó en las colas, fuera de los candados.
        loop {
            let mut pendientes: Vec<Arc<Tarea>> = self.compartido.inyector.lock().unwrap().drain(..).collect();
            for cola in &self.compartido.locales {
                pendientes.extend(cola.lock().unwrap().drain(..));
            }
            if pendientes.is_empty() {
                break;
            }
            pendientes.iter().for_each(|t| t.descarta());
        }
    }
}
