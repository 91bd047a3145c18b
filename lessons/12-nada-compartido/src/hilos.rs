//! El runtime de verdad: un hilo del sistema por shard, cada uno con su
//! propio bucle, sus isolates y sus buzones. Entre shards solo viajan
//! mensajes, por colas acotadas.

use std::collections::VecDeque;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender, TryRecvError};
use std::thread::{self, JoinHandle};
use std::time::Instant;

use crate::Azar;
use crate::isolate::{Ctx, Dir, Effect, Isolate, Remitente};

/// Capacidad por defecto del buzón de cada isolate (la misma que usa Tina).
pub const CAPACIDAD_BUZON: usize = 256;

/// Cuántos avisos de la cola recoge un shard antes de dar una vuelta a sus
/// isolates: así un aluvión de mensajes nuevos no deja sin turno a los que
/// ya esperan.
const LOTE_DE_LA_COLA: usize = 64;

/// Cómo se arranca el runtime.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Cuántos shards (hilos del sistema).
    pub shards: usize,
    /// Cuántos mensajes caben en el buzón de cada isolate.
    pub capacidad_buzon: usize,
    /// Cuántos mensajes caben en la cola de entrada de cada shard.
    pub capacidad_cola: usize,
    /// Cuántas respuestas para fuera caben sin que nadie las recoja.
    pub capacidad_salida: usize,
}

impl Default for Config {
    fn default() -> Self {
        let nucleos = thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        Config { shards: nucleos, capacidad_buzon: CAPACIDAD_BUZON, capacidad_cola: 1024, capacidad_salida: 1 << 16 }
    }
}

/// El mensaje no cupo: aquí lo tienes de vuelta, entero.
#[derive(Debug, PartialEq, Eq)]
pub struct Lleno<M>(pub M);

impl<M> fmt::Display for Lleno<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "la cola del shard está llena")
    }
}

/// Lo que el runtime devuelve a quien está fuera.
#[derive(Debug, PartialEq, Eq)]
pub enum Salida<M> {
    /// La respuesta (`Effect::Reply`) a un mensaje que enviaste.
    Respuesta(M),
    /// Un mensaje tuyo llegó al shard, pero el buzón de `para` estaba lleno.
    Rechazado { para: Dir, msg: M },
}

/// Lo que un shard cuenta de sí mismo al terminar.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InformeShard {
    pub shard: usize,
    /// Mensajes atendidos por sus isolates (incluidos los rechazos devueltos).
    pub atendidos: u64,
    /// Mensajes que no cupieron (buzón o cola llenos), detectados en este shard.
    pub rechazados: u64,
    /// Mensajes para un isolate que ya no existe, o salidas que nadie recogió.
    pub perdidos: u64,
    /// Un texto por cada pánico contenido.
    pub panicos: Vec<String>,
    /// Isolates vivos al terminar.
    pub vivos: usize,
}

/// Un mensaje con su dirección y su remite.
struct Sobre<M> {
    /// A quién van las respuestas (`Reply`).
    de: Remitente,
    /// Quién ejecutó el envío: a él vuelve el mensaje si no cabe.
    enviado_por: Remitente,
    para: Dir,
    msg: M,
}

/// Lo que viaja por la cola de un shard.
enum Aviso<M> {
    Mensaje(Sobre<M>),
    /// Un mensaje que no cupo en otro shard y vuelve a quien lo envió.
    Rebote(Sobre<M>),
    Parar,
}

struct Ranura<M> {
    isolate: Box<dyn Isolate<Msg = M>>,
    /// Mensajes nuevos, como mucho `capacidad_buzon`.
    buzon: VecDeque<Sobre<M>>,
    /// Mensajes suyos que no cupieron en otro buzón y le vuelven. No cuentan
    /// para la capacidad: no son trabajo nuevo.
    rebotes: VecDeque<Sobre<M>>,
    en_listos: bool,
}

// ANCHOR: cola
/// El lado que envía de la cola de entrada de un shard. Los mensajes nuevos
/// tienen un límite: si la cola está llena, `intenta` devuelve el mensaje.
/// Los rechazos que vuelven y la orden de parar no cuentan para el límite:
/// no son trabajo nuevo, y perderlos sería perder mensajes sin avisar.
struct Cola<M> {
    tx: Sender<Aviso<M>>,
    ocupados: Arc<AtomicUsize>,
    capacidad: usize,
}

impl<M> Cola<M> {
    fn intenta(&self, sobre: Sobre<M>) -> Result<(), Sobre<M>> {
        if self.ocupados.fetch_add(1, Ordering::AcqRel) >= self.capacidad {
            self.ocupados.fetch_sub(1, Ordering::AcqRel);
            return Err(sobre); // llena
        }
        self.tx.send(Aviso::Mensaje(sobre)).map_err(|e| match e.0 {
            Aviso::Mensaje(s) => s,
            _ => unreachable!(),
        })
    }

    /// Un aviso que no cuenta para el límite (un rechazo de vuelta, parar).
    fn avisa(&self, aviso: Aviso<M>) -> bool {
        self.tx.send(aviso).is_ok()
    }
}
// ANCHOR_END: cola

impl<M> Clone for Cola<M> {
    fn clone(&self) -> Self {
        Cola { tx: self.tx.clone(), ocupados: self.ocupados.clone(), capacidad: self.capacidad }
    }
}

/// El lado que recibe: al sacar un mensaje nuevo, deja su hueco libre.
struct Entrada<M> {
    rx: Receiver<Aviso<M>>,
    ocupados: Arc<AtomicUsize>,
}

impl<M> Entrada<M> {
    fn anota(&self, aviso: Aviso<M>) -> Aviso<M> {
        if matches!(aviso, Aviso::Mensaje(_)) {
            self.ocupados.fetch_sub(1, Ordering::AcqRel);
        }
        aviso
    }

    fn try_recv(&self) -> Result<Aviso<M>, TryRecvError> {
        self.rx.try_recv().map(|a| self.anota(a))
    }

    fn recv(&self) -> Option<Aviso<M>> {
        self.rx.recv().ok().map(|a| self.anota(a))
    }
}

fn cola<M>(capacidad: usize) -> (Cola<M>, Entrada<M>) {
    let (tx, rx) = mpsc::channel();
    let ocupados = Arc::new(AtomicUsize::new(0));
    (Cola { tx, ocupados: ocupados.clone(), capacidad }, Entrada { rx, ocupados })
}

// ANCHOR: nucleo
/// El runtime en marcha: un hilo por shard. Desde fuera solo puedes enviar
/// mensajes (`try_send`), leer la salida y pararlo.
pub struct Nucleo<M> {
    colas: Vec<Cola<M>>,
    hilos: Vec<JoinHandle<InformeShard>>,
    salida: Receiver<Salida<M>>,
}

impl<M: Send + 'static> Nucleo<M> {
    /// Arranca `config.shards` hilos. En cada uno, `inicio(shard)` crea sus
    /// primeros isolates (con números 0, 1, 2...). Los isolates se crean ya
    /// dentro de su hilo y no salen nunca de él: no necesitan ser `Send`.
    pub fn arranca<F>(config: Config, inicio: F) -> Nucleo<M>
    where
        F: Fn(usize) -> Vec<Box<dyn Isolate<Msg = M>>> + Send + Sync + 'static,
    {
        assert!(config.shards > 0, "hace falta al menos un shard");
        let inicio = Arc::new(inicio);
        let (tx_salida, salida) = mpsc::sync_channel(config.capacidad_salida);
        let (colas, entradas): (Vec<_>, Vec<_>) = (0..config.shards).map(|_| cola(config.capacidad_cola)).unzip();
        let arranque = Instant::now();
        let mut hilos = Vec::new();
        for (indice, entrada) in entradas.into_iter().enumerate() {
            let (colas, salida, config, inicio) = (colas.clone(), tx_salida.clone(), config.clone(), inicio.clone());
            let hilo = thread::Builder::new()
                .name(format!("shard-{indice}"))
                .spawn(move || {
                    let mut shard = Shard::new(indice, config, entrada, colas, salida, arranque);
                    for isolate in inicio(indice) {
                        shard.nuevo_isolate(isolate);
                    }
                    shard.corre()
                })
                .expect("no se pudo crear el hilo del shard");
            hilos.push(hilo);
        }
        Nucleo { colas, hilos, salida }
    }
    // ANCHOR_END: nucleo

    /// Cuántos shards tiene.
    pub fn shards(&self) -> usize {
        self.colas.len()
    }

    // ANCHOR: try_send
    /// Envía `msg` al isolate `para` sin bloquear nunca. Si la cola de su
    /// shard está llena, te devuelve el mensaje: decides tú qué hacer.
    pub fn try_send(&self, para: Dir, msg: M) -> Result<(), Lleno<M>> {
        let sobre = Sobre { de: Remitente::Fuera, enviado_por: Remitente::Fuera, para, msg };
        self.colas[para.shard].intenta(sobre).map_err(|sobre| Lleno(sobre.msg))
    }
    // ANCHOR_END: try_send

    /// Por aquí llegan las respuestas a tus mensajes y los rechazos de buzón lleno.
    pub fn salida(&self) -> &Receiver<Salida<M>> {
        &self.salida
    }

    /// Pide a cada shard que termine lo que tiene pendiente y pare, y
    /// devuelve lo que contó cada uno.
    pub fn para(self) -> Vec<InformeShard> {
        self.para_y_vacia().0
    }

    /// Como `para`, y además devuelve las salidas que nadie había recogido,
    /// incluidas las que se produjeron mientras los shards terminaban.
    pub fn para_y_vacia(self) -> (Vec<InformeShard>, Vec<Salida<M>>) {
        for cola in &self.colas {
            cola.avisa(Aviso::Parar);
        }
        let informes = self
            .hilos
            .into_iter()
            .enumerate()
            .map(|(i, h)| h.join().unwrap_or_else(|_| panic!("el hilo del shard {i} falló fuera de un isolate")))
            .collect();
        (informes, self.salida.try_iter().collect())
    }
}

/// Un shard: un hilo, sus isolates y su planificador, que es este bucle.
struct Shard<M> {
    indice: usize,
    config: Config,
    ranuras: Vec<Option<Ranura<M>>>,
    listos: VecDeque<usize>,
    /// Mensajes nuevos en los buzones de este shard, sumados.
    en_buzones: usize,
    entrada: Entrada<M>,
    colas: Vec<Cola<M>>,
    salida: SyncSender<Salida<M>>,
    azar: Azar,
    arranque: Instant,
    informe: InformeShard,
}

impl<M: Send + 'static> Shard<M> {
    fn new(
        indice: usize,
        config: Config,
        entrada: Entrada<M>,
        colas: Vec<Cola<M>>,
        salida: SyncSender<Salida<M>>,
        arranque: Instant,
    ) -> Self {
        let informe = InformeShard { shard: indice, ..Default::default() };
        let azar = Azar::new(indice as u64);
        Shard {
            indice,
            config,
            ranuras: Vec::new(),
            listos: VecDeque::new(),
            en_buzones: 0,
            entrada,
            colas,
            salida,
            azar,
            arranque,
            informe,
        }
    }

    fn nuevo_isolate(&mut self, isolate: Box<dyn Isolate<Msg = M>>) -> Dir {
        self.ranuras.push(Some(Ranura { isolate, buzon: VecDeque::new(), rebotes: VecDeque::new(), en_listos: false }));
        Dir { shard: self.indice, id: self.ranuras.len() - 1 }
    }

    // ANCHOR: bucle
    /// El bucle del shard. No hay robo de trabajo ni migración: lo que llega
    /// a este shard se atiende en este hilo, en el orden que decide este bucle.
    fn corre(mut self) -> InformeShard {
        let mut parando = false;
        loop {
            // 1. Recoge lo que llegó por la cola, sin esperar, pero solo
            //    mientras los mensajes de todos los buzones del shard,
            //    sumados, no lleguen a la capacidad de UN buzón: si la suma
            //    no llega, ningún buzón está lleno, y lo que se saca no
            //    rebota. Si llega, los mensajes se quedan en la cola, que se
            //    llena, y es quien envía el que recibe el rechazo (barato) en
            //    vez de este shard (que lo pagaría con tiempo de su núcleo).
            for _ in 0..LOTE_DE_LA_COLA {
                if self.en_buzones >= self.config.capacidad_buzon {
                    break;
                }
                match self.entrada.try_recv() {
                    Ok(aviso) => self.recibe(aviso, &mut parando),
                    Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
                }
            }
            // 2. Una vuelta: cada isolate con correo atiende UN mensaje.
            for _ in 0..self.listos.len() {
                let id = self.listos.pop_front().expect("hay tantos como contamos");
                self.turno(id);
            }
            // 3. Sin nada que hacer: para, o duerme hasta que llegue algo.
            if self.listos.is_empty() {
                if parando {
                    break;
                }
                match self.entrada.recv() {
                    Some(aviso) => self.recibe(aviso, &mut parando),
                    None => break,
                }
            }
        }
        self.informe.vivos = self.ranuras.iter().flatten().count();
        self.informe
    }
    // ANCHOR_END: bucle

    fn recibe(&mut self, aviso: Aviso<M>, parando: &mut bool) {
        match aviso {
            Aviso::Mensaje(sobre) => self.entrega_local(sobre),
            Aviso::Rebote(sobre) => self.devuelve_local(sobre),
            Aviso::Parar => *parando = true,
        }
    }

    /// Un turno del isolate `id`: primero le devuelve todos sus mensajes
    /// rechazados (son baratos y dicen dónde no hay sitio) y luego le da UN
    /// mensaje nuevo de su buzón.
    fn turno(&mut self, id: usize) {
        let Some(ranura) = self.ranuras[id].as_mut() else { return };
        ranura.en_listos = false;
        let mut cartas: Vec<(Sobre<M>, bool)> = ranura.rebotes.drain(..).map(|s| (s, true)).collect();
        let nuevo = ranura.buzon.pop_front();
        self.en_buzones -= usize::from(nuevo.is_some());
        cartas.extend(nuevo.map(|s| (s, false)));
        for (sobre, es_rebote) in cartas {
            if !self.atiende(id, sobre, es_rebote) {
                break; // el isolate entró en pánico y ya no existe
            }
        }
        if self.ranuras[id].as_ref().is_some_and(|r| !r.buzon.is_empty() || !r.rebotes.is_empty()) {
            self.marca_listo(id);
        }
    }

    /// Llama a `handle` (o a `rechazado`) y aplica el efecto. Devuelve
    /// `false` si el isolate entró en pánico.
    fn atiende(&mut self, id: usize, sobre: Sobre<M>, es_rebote: bool) -> bool {
        let Some(ranura) = self.ranuras[id].as_mut() else { return false };
        let yo = Dir { shard: self.indice, id };
        let azar = std::mem::replace(&mut self.azar, Azar::new(0));
        let mut ctx = Ctx::en(yo, sobre.de, self.config.shards, self.arranque.elapsed(), azar);
        let Sobre { de, para, msg, .. } = sobre;
        // ANCHOR: panico
        // Un pánico dentro de un isolate se queda en ese isolate: el shard
        // lo anota, retira al isolate y sigue con los demás.
        let resultado = panic::catch_unwind(AssertUnwindSafe(|| {
            if es_rebote { ranura.isolate.rechazado(para, msg, &mut ctx) } else { ranura.isolate.handle(msg, &mut ctx) }
        }));
        // ANCHOR_END: panico
        self.azar = ctx.azar;
        self.informe.atendidos += 1;
        match resultado {
            Ok(efecto) => {
                self.aplica(yo, de, efecto);
                true
            }
            Err(carga) => {
                let texto = texto_del_panico(carga.as_ref());
                self.informe.panicos.push(format!("isolate {yo}: {texto}"));
                self.retira(id);
                false
            }
        }
    }

    // ANCHOR: aplica
    /// Hace lo que pidió el isolate `yo` al atender un mensaje de `de`.
    fn aplica(&mut self, yo: Dir, de: Remitente, efecto: Effect<M>) {
        let mio = Remitente::Isolate(yo);
        match efecto {
            Effect::Noop => {}
            Effect::Reply(msg) => match de {
                Remitente::Isolate(para) => self.entrega(Sobre { de: mio, enviado_por: mio, para, msg }),
                Remitente::Fuera => self.a_fuera(Salida::Respuesta(msg)),
            },
            Effect::Send(para, msg) => self.entrega(Sobre { de: mio, enviado_por: mio, para, msg }),
            Effect::Forward(para, msg) => self.entrega(Sobre { de, enviado_por: mio, para, msg }),
            Effect::Spawn(isolate, msg) => {
                let para = self.nuevo_isolate(isolate);
                self.entrega_local(Sobre { de: mio, enviado_por: mio, para, msg });
            }
            Effect::Stop => self.retira(yo.id),
            Effect::Batch(efectos) => {
                for efecto in efectos {
                    self.aplica(yo, de, efecto);
                }
            }
        }
    }
    // ANCHOR_END: aplica

    /// Un mensaje hacia cualquier isolate: al buzón si es de este shard, a
    /// la cola de su shard si no. Nunca bloquea.
    fn entrega(&mut self, sobre: Sobre<M>) {
        if sobre.para.shard == self.indice {
            return self.entrega_local(sobre);
        }
        if let Err(sobre) = self.colas[sobre.para.shard].intenta(sobre) {
            self.rebota(sobre); // cola llena (o shard parado): vuelve a quien lo envió
        }
    }

    // ANCHOR: buzon
    /// Un mensaje para un isolate de este shard: a su buzón, si cabe.
    fn entrega_local(&mut self, sobre: Sobre<M>) {
        let capacidad = self.config.capacidad_buzon;
        let Some(ranura) = self.ranuras.get_mut(sobre.para.id).and_then(Option::as_mut) else {
            self.informe.perdidos += 1; // ese isolate ya no existe
            return;
        };
        if ranura.buzon.len() >= capacidad {
            return self.rebota(sobre); // lleno: vuelve a quien lo envió
        }
        let id = sobre.para.id;
        ranura.buzon.push_back(sobre);
        self.en_buzones += 1;
        self.marca_listo(id);
    }
    // ANCHOR_END: buzon

    /// El mensaje no cupo: se cuenta y vuelve a quien ejecutó el envío.
    fn rebota(&mut self, sobre: Sobre<M>) {
        self.informe.rechazados += 1;
        match sobre.enviado_por {
            Remitente::Fuera => self.a_fuera(Salida::Rechazado { para: sobre.para, msg: sobre.msg }),
            Remitente::Isolate(d) if d.shard == self.indice => self.devuelve_local(sobre),
            Remitente::Isolate(d) => {
                if !self.colas[d.shard].avisa(Aviso::Rebote(sobre)) {
                    self.informe.perdidos += 1; // el shard de destino ya paró
                }
            }
        }
    }

    /// Un rebote para un isolate de este shard: va a su lista de rebotes,
    /// que no tiene límite.
    fn devuelve_local(&mut self, sobre: Sobre<M>) {
        let Remitente::Isolate(d) = sobre.enviado_por else { unreachable!("solo rebota a isolates") };
        match self.ranuras.get_mut(d.id).and_then(Option::as_mut) {
            Some(ranura) => {
                ranura.rebotes.push_back(sobre);
                self.marca_listo(d.id);
            }
            None => self.informe.perdidos += 1,
        }
    }

    /// Pone al isolate `id` en la cola de listos, si no estaba ya.
    fn marca_listo(&mut self, id: usize) {
        if let Some(ranura) = self.ranuras[id].as_mut()
            && !ranura.en_listos
        {
            ranura.en_listos = true;
            self.listos.push_back(id);
        }
    }

    fn a_fuera(&mut self, salida: Salida<M>) {
        if self.salida.try_send(salida).is_err() {
            self.informe.perdidos += 1; // nadie recoge la salida: contado, no bloquea
        }
    }

    /// Retira un isolate (por `Stop` o por pánico). Lo que quedaba en su
    /// buzón se cuenta como perdido.
    fn retira(&mut self, id: usize) {
        if let Some(ranura) = self.ranuras[id].take() {
            self.en_buzones -= ranura.buzon.len();
            self.informe.perdidos += (ranura.buzon.len() + ranura.rebotes.len()) as u64;
        }
    }
}

/// El texto de un pánico, si es una cadena.
fn texto_del_panico(carga: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = carga.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = carga.downcast_ref::<String>() {
        s.clone()
    } else {
        "pánico sin texto".to_string()
    }
}

/// El shard de una clave: un hash estable (FNV-1a de 64 bits) módulo el
/// número de shards. Estable quiere decir que la misma clave va al mismo
/// shard en cada ejecución y en cada máquina.
pub fn shard_de(clave: &[u8], shards: usize) -> usize {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in clave {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (hash % shards as u64) as usize
}
