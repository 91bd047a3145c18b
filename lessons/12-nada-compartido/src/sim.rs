//! El mismo modelo, en modo determinista: un solo hilo, un generador con
//! semilla que elige qué mensaje pendiente se entrega ahora y un reloj
//! virtual. La misma semilla da exactamente la misma ejecución, y la traza
//! que imprime lo demuestra.
//!
//! Los isolates son los mismos que corren en [`Nucleo`](crate::Nucleo): el
//! simulador solo cambia quién decide el orden.

use std::collections::HashSet;
use std::fmt::{self, Write as _};
use std::panic::{self, AssertUnwindSafe};
use std::time::Duration;

use crate::Azar;
use crate::hilos::{CAPACIDAD_BUZON, Lleno};
use crate::isolate::{Ctx, Dir, Effect, Isolate, Remitente};

/// Un mensaje en vuelo.
struct Pendiente<M> {
    de: Remitente,
    enviado_por: Remitente,
    para: Dir,
    msg: M,
    /// `true` si es un mensaje que no cupo y vuelve a `enviado_por`.
    rebote: bool,
}

impl<M> Pendiente<M> {
    /// El canal por el que viaja. Dentro de un mismo canal se respeta el
    /// orden de envío, como en el runtime de verdad, donde un isolate que
    /// escribe dos veces al mismo destino usa la misma cola.
    fn canal(&self) -> (Remitente, Remitente) {
        if self.rebote {
            (Remitente::Isolate(self.para), self.enviado_por)
        } else {
            (self.enviado_por, Remitente::Isolate(self.para))
        }
    }
}

/// Lo que contó una simulación.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cuentas {
    pub entregados: u64,
    pub rechazados: u64,
    pub perdidos: u64,
    pub panicos: u64,
}

// ANCHOR: simulador
/// Un runtime de un solo hilo en el que el orden lo decide una semilla.
pub struct Simulador<M> {
    azar: Azar,
    ahora: Duration,
    shards: usize,
    capacidad_buzon: usize,
    isolates: Vec<Vec<Option<Box<dyn Isolate<Msg = M>>>>>,
    pendientes: Vec<Pendiente<M>>,
    salida: Vec<M>,
    traza: String,
    pasos: u64,
    cuentas: Cuentas,
}
// ANCHOR_END: simulador

impl<M: fmt::Debug> Simulador<M> {
    /// Un simulador con `shards` shards (vacíos) y la semilla dada.
    pub fn new(semilla: u64, shards: usize) -> Self {
        assert!(shards > 0, "hace falta al menos un shard");
        Simulador {
            azar: Azar::new(semilla),
            ahora: Duration::ZERO,
            shards,
            capacidad_buzon: CAPACIDAD_BUZON,
            isolates: (0..shards).map(|_| Vec::new()).collect(),
            pendientes: Vec::new(),
            salida: Vec::new(),
            traza: String::new(),
            pasos: 0,
            cuentas: Cuentas::default(),
        }
    }

    /// Cambia la capacidad de los buzones (256 por defecto).
    pub fn con_capacidad_buzon(mut self, capacidad: usize) -> Self {
        self.capacidad_buzon = capacidad;
        self
    }

    /// Coloca un isolate en un shard y devuelve su dirección.
    pub fn spawn(&mut self, shard: usize, isolate: Box<dyn Isolate<Msg = M>>) -> Dir {
        self.isolates[shard].push(Some(isolate));
        Dir { shard, id: self.isolates[shard].len() - 1 }
    }

    /// Envía un mensaje desde fuera, como `Nucleo::try_send`: si el buzón
    /// de `para` está lleno, te lo devuelve. Las respuestas se recogen con
    /// [`Self::salida`].
    pub fn envia(&mut self, para: Dir, msg: M) -> Result<(), Lleno<M>> {
        if self.en_buzon(para) >= self.capacidad_buzon {
            self.cuentas.rechazados += 1;
            let _ = writeln!(self.traza, "               buzón de {para} lleno: {msg:?} vuelve fuera");
            return Err(Lleno(msg));
        }
        self.encola(Remitente::Fuera, Remitente::Fuera, para, msg);
        Ok(())
    }

    /// Cuántos mensajes nuevos esperan para `para` (los rebotes no cuentan).
    fn en_buzon(&self, para: Dir) -> usize {
        self.pendientes.iter().filter(|p| !p.rebote && p.para == para).count()
    }

    /// Cuántos mensajes hay en vuelo.
    pub fn pendientes(&self) -> usize {
        self.pendientes.len()
    }

    /// La hora virtual.
    pub fn ahora(&self) -> Duration {
        self.ahora
    }

    /// Cuántas entregas lleva.
    pub fn pasos(&self) -> u64 {
        self.pasos
    }

    /// Lo que contó hasta ahora.
    pub fn cuentas(&self) -> &Cuentas {
        &self.cuentas
    }

    /// La traza: una línea por entrega, en orden.
    pub fn traza(&self) -> &str {
        &self.traza
    }

    /// Saca las respuestas que llegaron fuera, en orden de llegada.
    pub fn salida(&mut self) -> Vec<M> {
        std::mem::take(&mut self.salida)
    }

    /// Entrega mensajes hasta que no quede ninguno o se llegue a `max_pasos`.
    /// Devuelve cuántos entregó.
    pub fn corre(&mut self, max_pasos: u64) -> u64 {
        let mut dados = 0;
        while dados < max_pasos && self.paso() {
            dados += 1;
        }
        dados
    }

    // ANCHOR: paso
    /// Una entrega: la semilla elige un mensaje entre los que pueden ir
    /// ahora, el reloj virtual avanza y el isolate lo atiende.
    /// Devuelve `false` si no había nada pendiente.
    pub fn paso(&mut self) -> bool {
        // 1. Candidatos: el primero de cada canal (el orden dentro de un
        //    canal se respeta; entre canales, cualquier orden es posible).
        let mut vistos = HashSet::new();
        let candidatos: Vec<usize> =
            (0..self.pendientes.len()).filter(|&i| vistos.insert(self.pendientes[i].canal())).collect();
        if candidatos.is_empty() {
            return false;
        }
        // 2. La semilla elige uno, y el reloj virtual avanza de 1 a 100 µs.
        let elegido = candidatos[self.azar.hasta(candidatos.len())];
        let p = self.pendientes.remove(elegido);
        self.ahora += Duration::from_micros(1 + self.azar.hasta(100) as u64);
        self.pasos += 1;
        // 3. Se anota en la traza y se entrega.
        let t = self.ahora.as_micros();
        if p.rebote {
            let _ = writeln!(
                self.traza,
                "{:>4} {t:>6}µs  buzón de {} lleno: {:?} vuelve a {}",
                self.pasos, p.para, p.msg, p.enviado_por
            );
        } else {
            let _ = writeln!(self.traza, "{:>4} {t:>6}µs  {} -> {}  {:?}", self.pasos, p.de, p.para, p.msg);
        }
        self.entrega(p);
        true
    }
    // ANCHOR_END: paso

    fn entrega(&mut self, p: Pendiente<M>) {
        let yo = match (p.rebote, p.enviado_por) {
            (true, Remitente::Isolate(d)) => d,
            (true, Remitente::Fuera) => unreachable!("los rechazos para fuera no se encolan"),
            (false, _) => p.para,
        };
        let Some(isolate) = self.isolates[yo.shard].get_mut(yo.id).and_then(Option::as_mut) else {
            self.cuentas.perdidos += 1;
            let _ = writeln!(self.traza, "               {yo} ya no existe: mensaje perdido");
            return;
        };
        let azar = std::mem::replace(&mut self.azar, Azar::new(0));
        let mut ctx = Ctx::en(yo, p.de, self.shards, self.ahora, azar);
        let Pendiente { de, para, msg, rebote, .. } = p;
        let resultado = panic::catch_unwind(AssertUnwindSafe(|| {
            if rebote { isolate.rechazado(para, msg, &mut ctx) } else { isolate.handle(msg, &mut ctx) }
        }));
        self.azar = ctx.azar;
        self.cuentas.entregados += 1;
        match resultado {
            Ok(efecto) => self.aplica(yo, de, efecto),
            Err(_) => {
                self.cuentas.panicos += 1;
                let _ = writeln!(self.traza, "               {yo} entró en pánico y queda retirado");
                self.isolates[yo.shard][yo.id] = None;
            }
        }
    }

    fn aplica(&mut self, yo: Dir, de: Remitente, efecto: Effect<M>) {
        let mio = Remitente::Isolate(yo);
        match efecto {
            Effect::Noop => {}
            Effect::Reply(msg) => match de {
                Remitente::Isolate(para) => self.encola(mio, mio, para, msg),
                Remitente::Fuera => {
                    let _ = writeln!(self.traza, "               {yo} -> fuera  {msg:?}");
                    self.salida.push(msg);
                }
            },
            Effect::Send(para, msg) => self.encola(mio, mio, para, msg),
            Effect::Forward(para, msg) => self.encola(de, mio, para, msg),
            Effect::Spawn(isolate, msg) => {
                let para = self.spawn(yo.shard, isolate);
                let _ = writeln!(self.traza, "               {yo} crea {para}");
                self.encola(mio, mio, para, msg);
            }
            Effect::Stop => {
                let _ = writeln!(self.traza, "               {yo} termina");
                self.isolates[yo.shard][yo.id] = None;
            }
            Effect::Batch(efectos) => {
                for efecto in efectos {
                    self.aplica(yo, de, efecto);
                }
            }
        }
    }

    /// Pone un mensaje en vuelo. Si el buzón de su destino está lleno, el
    /// mensaje se convierte en un rechazo que vuelve a quien lo envió.
    fn encola(&mut self, de: Remitente, enviado_por: Remitente, para: Dir, msg: M) {
        let rebote = self.en_buzon(para) >= self.capacidad_buzon;
        if rebote {
            self.cuentas.rechazados += 1;
        }
        self.pendientes.push(Pendiente { de, enviado_por, para, msg, rebote });
    }
}
