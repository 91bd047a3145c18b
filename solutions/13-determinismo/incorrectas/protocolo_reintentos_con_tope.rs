//! Respuesta incorrecta plausible: la cuenta rechaza bien las escrituras
//! viejas, pero el cajero, para no reintentar sin fin, tras dos choques
//! seguidos escribe sin comprobar (`Fuerza`). Con dos cajeros casi nunca
//! choca dos veces; con cuatro, sí, y esa escritura forzada pisa a otra.
//!
//! Ejercicio 1: arregla el protocolo de los cajeros.
//!
//! Es el protocolo de la lección 13, copiado aquí para que lo cambies. Un
//! cajero lee el saldo (`Lee` → `Saldo`) y luego escribe el nuevo
//! (`Escribe`). Si otro cajero escribe entre medias, la segunda escritura
//! pisa a la primera y un ingreso se pierde. El simulador lo encuentra en
//! unas pocas semillas de cada cien con la escena de la lección, y en casi
//! todas con dos cajeros rápidos.
//!
//! Arréglalo para que las pruebas pasen con 2 000 semillas en las dos
//! escenas. Puedes cambiar la cuenta, el cajero o los mensajes, pero deja
//! como están `Ingresa`, `Consulta`, `Total`, `Hechos`, los constructores
//! (`Cuenta::new`, `Cajero::rapido`, `Cajero::lento`) y el `Antifraude`: las
//! pruebas montan la escena con ellos. Y nada de perder ingresos: cada cajero
//! debe terminar todos los suyos.

use std::collections::VecDeque;

use nucleo::{Ctx, Dir, Effect, Isolate};

/// Los mensajes del protocolo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Msg {
    /// (De fuera al cajero) ingresa esta cantidad en la cuenta.
    Ingresa(i64),
    /// (Del cajero a la cuenta) ¿cuánto hay?
    Lee,
    /// (De la cuenta al cajero) esto hay.
    Saldo(i64),
    /// (Del cajero a la cuenta) había `leido`; ahora debe haber `nuevo`.
    Escribe { leido: i64, nuevo: i64 },
    /// (Del cajero a la cuenta) escribe `nuevo`, sin comprobar nada.
    Fuerza(i64),
    /// (De la cuenta al cajero) escrito.
    Escrito,
    /// (De fuera a cualquiera) ¿cómo estás?
    Consulta,
    /// La respuesta de la cuenta a `Consulta`: su saldo.
    Total(i64),
    /// La respuesta de un cajero a `Consulta`: cuántos ingresos terminó.
    Hechos(u32),
    /// (Del cajero al servicio antifraude) comprobación número n.
    Verifica(u32),
    /// (Del servicio antifraude al cajero) comprobación n, correcta.
    Verificado(u32),
}

/// La cuenta.
pub struct Cuenta {
    saldo: i64,
}

impl Cuenta {
    pub fn new(saldo: i64) -> Self {
        Cuenta { saldo }
    }
}

impl Isolate for Cuenta {
    type Msg = Msg;

    fn handle(&mut self, msg: Msg, _ctx: &mut Ctx) -> Effect<Msg> {
        match msg {
            Msg::Lee => Effect::Reply(Msg::Saldo(self.saldo)),
            // Escribe solo si lo que leyó el cajero sigue siendo verdad. Si
            // no, le da el saldo de ahora: su `Saldo` vuelve a calcular.
            Msg::Escribe { leido, nuevo } if leido == self.saldo => {
                self.saldo = nuevo;
                Effect::Reply(Msg::Escrito)
            }
            Msg::Escribe { .. } => Effect::Reply(Msg::Saldo(self.saldo)),
            Msg::Fuerza(nuevo) => {
                self.saldo = nuevo;
                Effect::Reply(Msg::Escrito)
            }
            Msg::Consulta => Effect::Reply(Msg::Total(self.saldo)),
            _ => Effect::Noop,
        }
    }
}

/// El servicio antifraude: da por buena cada comprobación.
pub struct Antifraude;

impl Isolate for Antifraude {
    type Msg = Msg;

    fn handle(&mut self, msg: Msg, _ctx: &mut Ctx) -> Effect<Msg> {
        match msg {
            Msg::Verifica(n) => Effect::Reply(Msg::Verificado(n)),
            _ => Effect::Noop,
        }
    }
}

/// Un cajero: atiende sus ingresos de uno en uno.
pub struct Cajero {
    cuenta: Dir,
    antifraude: Option<(Dir, u32)>,
    en_curso: Option<i64>,
    cola: VecDeque<i64>,
    hechos: u32,
    saldos_vistos: u32,
}

impl Cajero {
    /// Un cajero que va directo a la cuenta.
    pub fn rapido(cuenta: Dir) -> Self {
        Cajero { cuenta, antifraude: None, en_curso: None, cola: VecDeque::new(), hechos: 0, saldos_vistos: 0 }
    }

    /// Un cajero que antes hace `rondas` comprobaciones con `antifraude`.
    pub fn lento(cuenta: Dir, antifraude: Dir, rondas: u32) -> Self {
        Cajero { antifraude: Some((antifraude, rondas)), ..Cajero::rapido(cuenta) }
    }

    fn empieza(&self) -> Effect<Msg> {
        match self.antifraude {
            Some((servicio, _)) => Effect::Send(servicio, Msg::Verifica(1)),
            None => Effect::Send(self.cuenta, Msg::Lee),
        }
    }
}

impl Isolate for Cajero {
    type Msg = Msg;

    fn handle(&mut self, msg: Msg, _ctx: &mut Ctx) -> Effect<Msg> {
        match msg {
            Msg::Ingresa(cantidad) if self.en_curso.is_none() => {
                self.en_curso = Some(cantidad);
                self.empieza()
            }
            Msg::Ingresa(cantidad) => {
                self.cola.push_back(cantidad);
                Effect::Noop
            }
            Msg::Verificado(n) => match self.antifraude {
                Some((servicio, rondas)) if n < rondas => Effect::Send(servicio, Msg::Verifica(n + 1)),
                _ => Effect::Send(self.cuenta, Msg::Lee),
            },
            Msg::Saldo(leido) => {
                let cantidad = self.en_curso.expect("un Saldo sin ingreso en curso");
                // El primer Saldo es la lectura; los siguientes, choques.
                self.saldos_vistos += 1;
                if self.saldos_vistos > 2 {
                    return Effect::Send(self.cuenta, Msg::Fuerza(leido + cantidad));
                }
                Effect::Send(self.cuenta, Msg::Escribe { leido, nuevo: leido + cantidad })
            }
            Msg::Escrito => {
                self.saldos_vistos = 0;
                self.hechos += 1;
                self.en_curso = self.cola.pop_front();
                match self.en_curso {
                    Some(_) => self.empieza(),
                    None => Effect::Noop,
                }
            }
            Msg::Consulta => Effect::Reply(Msg::Hechos(self.hechos)),
            _ => Effect::Noop,
        }
    }
}
