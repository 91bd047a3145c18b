//! Lo que escribe quien usa el runtime: un `Isolate`, sus efectos y el
//! contexto que recibe en cada mensaje. Esto es igual en el runtime de
//! verdad (`Nucleo`, un hilo por shard) y en el simulador (`sim`).

use std::fmt;
use std::time::Duration;

use crate::Azar;

// ANCHOR: dir
/// La dirección de un isolate: en qué shard vive y su número dentro de él.
/// Un isolate nunca cambia de shard, así que su dirección no cambia nunca.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Dir {
    pub shard: usize,
    pub id: usize,
}

/// Quién envió el mensaje que se está atendiendo: otro isolate o alguien de
/// fuera del runtime (el programa que llama a `Nucleo::try_send`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Remitente {
    Isolate(Dir),
    Fuera,
}
// ANCHOR_END: dir

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.shard, self.id)
    }
}

impl fmt::Display for Remitente {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Remitente::Isolate(dir) => write!(f, "{dir}"),
            Remitente::Fuera => write!(f, "fuera"),
        }
    }
}

// ANCHOR: isolate
/// Una unidad de trabajo: un estado y una función síncrona que atiende un
/// mensaje cada vez. No hay `async` ni `.await`: `handle` corre de principio
/// a fin y devuelve lo que quiere que pase después, como un valor.
pub trait Isolate {
    /// El tipo de los mensajes que circulan por el runtime.
    type Msg;

    /// Atiende un mensaje. `ctx` dice quién eres, quién te escribe y qué hora es.
    fn handle(&mut self, msg: Self::Msg, ctx: &mut Ctx) -> Effect<Self::Msg>;

    /// Un mensaje que enviaste no cupo: el buzón (o la cola) de `para` estaba
    /// lleno. Te lo devuelven entero. Por defecto se descarta, pero el
    /// runtime lo cuenta igualmente en su informe.
    fn rechazado(&mut self, para: Dir, msg: Self::Msg, ctx: &mut Ctx) -> Effect<Self::Msg> {
        let _ = (para, msg, ctx);
        Effect::Noop
    }
}

/// Lo que un isolate pide al runtime al terminar de atender un mensaje.
pub enum Effect<M> {
    /// Nada.
    Noop,
    /// Responde a quien envió el mensaje que se está atendiendo.
    Reply(M),
    /// Envía un mensaje a otro isolate, de este shard o de otro.
    Send(Dir, M),
    /// Reenvía un mensaje sin cambiar su remitente: la respuesta irá directa
    /// a quien te escribió a ti.
    Forward(Dir, M),
    /// Crea un isolate nuevo en este mismo shard y le entrega un primer
    /// mensaje, del que tú eres el remitente.
    Spawn(Box<dyn Isolate<Msg = M>>, M),
    /// Este isolate termina; lo que quede en su buzón se descarta y se cuenta.
    Stop,
    /// Varios efectos, en orden.
    Batch(Vec<Effect<M>>),
}
// ANCHOR_END: isolate

impl<M: fmt::Debug> fmt::Debug for Effect<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Effect::Noop => write!(f, "Noop"),
            Effect::Reply(m) => f.debug_tuple("Reply").field(m).finish(),
            Effect::Send(d, m) => f.debug_tuple("Send").field(d).field(m).finish(),
            Effect::Forward(d, m) => f.debug_tuple("Forward").field(d).field(m).finish(),
            Effect::Spawn(_, m) => f.debug_tuple("Spawn").field(&"<isolate>").field(m).finish(),
            Effect::Stop => write!(f, "Stop"),
            Effect::Batch(v) => f.debug_tuple("Batch").field(v).finish(),
        }
    }
}

/// Lo que un isolate puede saber mientras atiende un mensaje.
#[derive(Debug)]
pub struct Ctx {
    yo: Dir,
    remitente: Remitente,
    shards: usize,
    ahora: Duration,
    pub(crate) azar: Azar,
}

impl Ctx {
    /// Un contexto suelto, para llamar a `handle` a mano en una prueba: la
    /// hora es cero y el generador empieza en la semilla 0.
    pub fn nuevo(yo: Dir, remitente: Remitente, shards: usize) -> Ctx {
        Ctx { yo, remitente, shards, ahora: Duration::ZERO, azar: Azar::new(0) }
    }

    /// El mismo contexto, con otra hora.
    pub fn con_ahora(mut self, ahora: Duration) -> Ctx {
        self.ahora = ahora;
        self
    }

    /// El mismo contexto, con otro generador.
    pub fn con_azar(mut self, azar: Azar) -> Ctx {
        self.azar = azar;
        self
    }

    pub(crate) fn en(yo: Dir, remitente: Remitente, shards: usize, ahora: Duration, azar: Azar) -> Ctx {
        Ctx { yo, remitente, shards, ahora, azar }
    }

    /// Tu propia dirección.
    pub fn yo(&self) -> Dir {
        self.yo
    }

    /// Quién envió el mensaje que atiendes. En `rechazado`, el remitente que
    /// llevaba el mensaje que no cupo: tú, si usaste `Send`; quien te
    /// escribió, si usaste `Forward`.
    pub fn remitente(&self) -> Remitente {
        self.remitente
    }

    /// Cuántos shards tiene el runtime.
    pub fn shards(&self) -> usize {
        self.shards
    }

    /// La hora: tiempo real desde que arrancó el runtime, o tiempo virtual
    /// en el simulador. Un isolate que la lee aquí (y no con
    /// `Instant::now()`) se puede simular.
    pub fn ahora(&self) -> Duration {
        self.ahora
    }

    /// Un generador con semilla, propiedad del shard (o del simulador).
    pub fn azar(&mut self) -> &mut Azar {
        &mut self.azar
    }
}
