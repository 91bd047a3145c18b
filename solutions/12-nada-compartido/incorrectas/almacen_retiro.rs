//! Respuesta incorrecta plausible: no deja que un saldo que ya existe baje de
//! cero, como un banco prudente. Con solo ingresos (o con una clave nueva) no se
//! nota; una retirada mayor que el saldo lo deja en 0 en vez de en negativo, y
//! `Suma` deja de sumar.
//!
//! Ejercicio 1: tu primer isolate.
//!
//! `Almacen` guarda pares clave-valor. Es un isolate: atiende un mensaje
//! cada vez, con una función síncrona, y responde devolviendo un efecto.
//! Nadie más toca su `HashMap`, así que no hace falta ningún candado.
//!
//! Qué debe responder `handle` (siempre con `Effect::Reply`, a quien
//! preguntó):
//!
//! - `Pon { clave, valor }`: guarda el valor y responde `Anterior(...)` con
//!   el valor que había antes (o `None`).
//! - `Lee { clave }`: responde `Valor(...)` con el valor actual (o `None`).
//! - `Suma { clave, cuanto }`: suma `cuanto` al valor (una clave que no
//!   existe vale 0) y responde `Valor(Some(nuevo))`.
//! - `Cierra`: responde `Cerrado` y termina. Son dos efectos a la vez:
//!   `Effect::Batch(vec![...])` con la respuesta y `Effect::Stop`.
//! - Cualquier respuesta que le llegue por error: `Effect::Noop`.

use std::collections::HashMap;

use nucleo::{Ctx, Effect, Isolate};

/// Los mensajes del almacén: peticiones y respuestas.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kv {
    Pon { clave: String, valor: i64 },
    Lee { clave: String },
    Suma { clave: String, cuanto: i64 },
    Cierra,
    Anterior(Option<i64>),
    Valor(Option<i64>),
    Cerrado,
}

/// Un almacén clave-valor.
#[derive(Debug, Default)]
pub struct Almacen {
    pub datos: HashMap<String, i64>,
}

impl Isolate for Almacen {
    type Msg = Kv;

    fn handle(&mut self, msg: Kv, _ctx: &mut Ctx) -> Effect<Kv> {
        match msg {
            Kv::Pon { clave, valor } => Effect::Reply(Kv::Anterior(self.datos.insert(clave, valor))),
            Kv::Lee { clave } => Effect::Reply(Kv::Valor(self.datos.get(&clave).copied())),
            Kv::Suma { clave, cuanto } => match self.datos.get_mut(&clave) {
                Some(valor) => {
                    *valor = (*valor + cuanto).max(0);
                    Effect::Reply(Kv::Valor(Some(*valor)))
                }
                None => {
                    self.datos.insert(clave, cuanto);
                    Effect::Reply(Kv::Valor(Some(cuanto)))
                }
            },
            Kv::Cierra => Effect::Batch(vec![Effect::Reply(Kv::Cerrado), Effect::Stop]),
            Kv::Anterior(_) | Kv::Valor(_) | Kv::Cerrado => Effect::Noop,
        }
    }
}
