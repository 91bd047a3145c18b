//! Respuesta incorrecta plausible: con cada `Ack` reenvía TODOS los
//! pendientes. Un `Ack` deja un hueco, no muchos: el primero cabe y los demás
//! vuelven a chocar contra el buzón lleno, una y otra vez.
//!
//! Ejercicio 2: un buzón lleno no es un mensaje perdido.
//!
//! Un `Productor` tiene que hacer llegar los datos `0..n` a un `Consumidor`.
//! Los envía todos de golpe, pero el buzón del consumidor está acotado: los
//! que no caben vuelven al productor por `rechazado`. Tirarlos sería perder
//! datos; reenviarlos enseguida sería machacar un buzón que sigue lleno.
//!
//! Haz contrapresión con créditos: guarda cada dato rechazado en
//! `pendientes` y reenvía uno (el más antiguo) cada vez que llega un `Ack`,
//! porque un `Ack` significa que el consumidor acaba de sacar un mensaje de
//! su buzón y hay sitio. Cuenta cada reenvío en `reintentos`.
//!
//! `Empieza`, `Estado` y el `Consumidor` ya están escritos.

use std::collections::VecDeque;

use nucleo::{Ctx, Dir, Effect, Isolate};

/// Los mensajes del ejercicio.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Flujo {
    /// (De fuera al productor) envía los datos `0..n` al consumidor `para`.
    Empieza { para: Dir, n: u32 },
    /// (Del productor al consumidor) un dato.
    Dato(u32),
    /// (Del consumidor al productor) el dato ya está procesado.
    Ack(u32),
    /// (De fuera a cualquiera) ¿cómo vas?
    Estado,
    /// La respuesta del productor a `Estado`.
    Informe { confirmados: u32, reintentos: u32, pendientes: usize },
    /// La respuesta del consumidor a `Estado`: lo que ha recibido, en orden.
    Recibidos(Vec<u32>),
}

/// Recibe datos, los anota y confirma cada uno con un `Ack`.
#[derive(Debug, Default)]
pub struct Consumidor {
    pub recibidos: Vec<u32>,
}

impl Isolate for Consumidor {
    type Msg = Flujo;

    fn handle(&mut self, msg: Flujo, _ctx: &mut Ctx) -> Effect<Flujo> {
        match msg {
            Flujo::Dato(n) => {
                self.recibidos.push(n);
                Effect::Reply(Flujo::Ack(n))
            }
            Flujo::Estado => Effect::Reply(Flujo::Recibidos(self.recibidos.clone())),
            _ => Effect::Noop,
        }
    }
}

/// Envía datos a un consumidor sin perder ninguno.
#[derive(Debug, Default)]
pub struct Productor {
    /// A quién enviar (lo fija `Empieza`).
    pub destino: Option<Dir>,
    /// Datos que no cupieron y esperan un hueco, el más antiguo primero.
    pub pendientes: VecDeque<u32>,
    /// Cuántos `Ack` han llegado.
    pub confirmados: u32,
    /// Cuántos datos se han reenviado.
    pub reintentos: u32,
}

impl Isolate for Productor {
    type Msg = Flujo;

    fn handle(&mut self, msg: Flujo, _ctx: &mut Ctx) -> Effect<Flujo> {
        match msg {
            Flujo::Empieza { para, n } => {
                self.destino = Some(para);
                Effect::Batch((0..n).map(|i| Effect::Send(para, Flujo::Dato(i))).collect())
            }
            Flujo::Estado => Effect::Reply(Flujo::Informe {
                confirmados: self.confirmados,
                reintentos: self.reintentos,
                pendientes: self.pendientes.len(),
            }),
            Flujo::Ack(_) => {
                self.confirmados += 1;
                match self.destino {
                    Some(para) => {
                        let todos: Vec<u32> = self.pendientes.drain(..).collect();
                        self.reintentos += todos.len() as u32;
                        Effect::Batch(todos.into_iter().map(|d| Effect::Send(para, Flujo::Dato(d))).collect())
                    }
                    None => Effect::Noop,
                }
            }
            _ => Effect::Noop,
        }
    }

    fn rechazado(&mut self, _para: Dir, msg: Flujo, _ctx: &mut Ctx) -> Effect<Flujo> {
        if let Flujo::Dato(dato) = msg {
            self.pendientes.push_back(dato);
        }
        Effect::Noop
    }
}
