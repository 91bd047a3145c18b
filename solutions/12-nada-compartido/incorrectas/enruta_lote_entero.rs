//! Respuesta incorrecta plausible: manda el lote entero al cajón de su primera
//! clave, de una vez. El cajón no sabe qué hacer con un `Lote` y nadie recibe
//! respuesta; y aunque supiera, las demás claves no viven en ese shard.
//!
//! Ejercicio 3: cada clave a su shard.
//!
//! El servicio tiene un `Cajon` (un almacén pequeño, ya escrito) en la
//! dirección `{ shard, id: 0 }` de cada shard. Cada clave vive en el shard
//! que le toca por su hash: `nucleo::shard_de(clave.as_bytes(), shards)`.
//! Los clientes que leen directamente de un cajón usan esa misma cuenta, así
//! que tú también.
//!
//! 1. `dir_de`: la dirección del cajón de una clave.
//! 2. `Enrutador::handle`: reenvía cada `Pon` y cada `Lee` al cajón de su
//!    clave con `Effect::Forward`, para que el cajón responda directamente a
//!    quien preguntó (con `Send`, la respuesta volvería al enrutador). Un
//!    `Lote` se reenvía entero: un `Forward` por petición, en un `Batch`.
//! 3. `Enrutador::rechazado`: si el buzón del cajón estaba lleno, responde
//!    `Ocupado { clave }` a quien hizo la petición. Dentro de `rechazado`,
//!    `Effect::Reply` va al remitente original de un mensaje reenviado. Cada
//!    petición recibe una respuesta: un dato o un «ocupado», nunca silencio.

use std::collections::HashMap;

use nucleo::{Ctx, Dir, Effect, Isolate, shard_de};

/// Los mensajes del servicio.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kv {
    Pon {
        clave: String,
        valor: i64,
    },
    Lee {
        clave: String,
    },
    /// Varias peticiones de una vez.
    Lote(Vec<Kv>),
    /// Respuesta del cajón a `Pon`: en qué shard quedó guardado.
    Guardado {
        shard: usize,
    },
    /// Respuesta del cajón a `Lee`.
    Valor {
        shard: usize,
        valor: Option<i64>,
    },
    /// Respuesta del enrutador cuando el cajón no tenía sitio.
    Ocupado {
        clave: String,
    },
}

impl Kv {
    /// La clave de una petición.
    pub fn clave(&self) -> Option<&str> {
        match self {
            Kv::Pon { clave, .. } | Kv::Lee { clave } | Kv::Ocupado { clave } => Some(clave),
            _ => None,
        }
    }
}

/// Un almacén pequeño: guarda lo que le piden y dice en qué shard está.
#[derive(Debug, Default)]
pub struct Cajon {
    datos: HashMap<String, i64>,
}

impl Isolate for Cajon {
    type Msg = Kv;

    fn handle(&mut self, msg: Kv, ctx: &mut Ctx) -> Effect<Kv> {
        let shard = ctx.yo().shard;
        match msg {
            Kv::Pon { clave, valor } => {
                self.datos.insert(clave, valor);
                Effect::Reply(Kv::Guardado { shard })
            }
            Kv::Lee { clave } => Effect::Reply(Kv::Valor { shard, valor: self.datos.get(&clave).copied() }),
            _ => Effect::Noop,
        }
    }
}

/// La dirección del cajón donde vive `clave`.
pub fn dir_de(clave: &str, shards: usize) -> Dir {
    Dir { shard: shard_de(clave.as_bytes(), shards), id: 0 }
}

/// Recibe peticiones de fuera y las reenvía al cajón de cada clave.
#[derive(Debug, Default)]
pub struct Enrutador;

impl Isolate for Enrutador {
    type Msg = Kv;

    fn handle(&mut self, msg: Kv, ctx: &mut Ctx) -> Effect<Kv> {
        reenvia(msg, ctx.shards())
    }

    fn rechazado(&mut self, _para: Dir, msg: Kv, _ctx: &mut Ctx) -> Effect<Kv> {
        match msg.clave() {
            Some(clave) => Effect::Reply(Kv::Ocupado { clave: clave.to_string() }),
            None => Effect::Noop,
        }
    }
}

fn reenvia(msg: Kv, shards: usize) -> Effect<Kv> {
    match msg {
        Kv::Pon { .. } | Kv::Lee { .. } => {
            let para = dir_de(msg.clave().expect("Pon y Lee tienen clave"), shards);
            Effect::Forward(para, msg)
        }
        Kv::Lote(peticiones) => match peticiones.first().and_then(Kv::clave) {
            Some(clave) => Effect::Forward(dir_de(clave, shards), Kv::Lote(peticiones.clone())),
            None => Effect::Noop,
        },
        _ => Effect::Noop,
    }
}
