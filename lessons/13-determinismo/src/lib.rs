//! Lección 13: un protocolo con un error de orden, y el simulador que lo
//! encuentra probando semillas.
//!
//! Dos cajeros ingresan dinero en una cuenta. Cada ingreso es una
//! conversación: el cajero pide el saldo (`Lee`), la cuenta se lo da
//! (`Saldo`), el cajero calcula el nuevo y lo escribe (`Escribe`). Uno de
//! los cajeros es lento: antes de tocar la cuenta, consulta varias veces a un
//! servicio antifraude. Casi siempre, cuando empieza a escribir, el otro ya
//! ha terminado. Casi.

pub mod reproductor;

use std::collections::VecDeque;

use nucleo::sim::Simulador;
use nucleo::{Ctx, Dir, Effect, Isolate};

// ANCHOR: mensajes
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
// ANCHOR_END: mensajes

// ANCHOR: cuenta
/// La cuenta: guarda el saldo y hace lo que le piden.
pub struct Cuenta {
    saldo: i64,
}

impl Isolate for Cuenta {
    type Msg = Msg;

    fn handle(&mut self, msg: Msg, _ctx: &mut Ctx) -> Effect<Msg> {
        match msg {
            Msg::Lee => Effect::Reply(Msg::Saldo(self.saldo)),
            Msg::Escribe { nuevo, .. } => {
                self.saldo = nuevo; // el error: no mira si `leido` sigue siendo verdad
                Effect::Reply(Msg::Escrito)
            }
            Msg::Consulta => Effect::Reply(Msg::Total(self.saldo)),
            _ => Effect::Noop,
        }
    }
}
// ANCHOR_END: cuenta

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

// ANCHOR: cajero
/// Un cajero: atiende sus ingresos de uno en uno. Si tiene servicio
/// antifraude, hace `rondas` comprobaciones antes de tocar la cuenta.
pub struct Cajero {
    cuenta: Dir,
    antifraude: Option<(Dir, u32)>,
    en_curso: Option<i64>,
    cola: VecDeque<i64>,
    hechos: u32,
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
                self.cola.push_back(cantidad); // ya hay uno en marcha: a la cola
                Effect::Noop
            }
            Msg::Verificado(n) => match self.antifraude {
                Some((servicio, rondas)) if n < rondas => Effect::Send(servicio, Msg::Verifica(n + 1)),
                _ => Effect::Send(self.cuenta, Msg::Lee),
            },
            Msg::Saldo(leido) => {
                let cantidad = self.en_curso.expect("un Saldo sin ingreso en curso");
                Effect::Send(self.cuenta, Msg::Escribe { leido, nuevo: leido + cantidad })
            }
            Msg::Escrito => {
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
// ANCHOR_END: cajero

impl Cajero {
    /// Un cajero que va directo a la cuenta.
    pub fn rapido(cuenta: Dir) -> Self {
        Cajero { cuenta, antifraude: None, en_curso: None, cola: VecDeque::new(), hechos: 0 }
    }

    /// Un cajero que antes hace `rondas` comprobaciones con `antifraude`.
    pub fn lento(cuenta: Dir, antifraude: Dir, rondas: u32) -> Self {
        Cajero { antifraude: Some((antifraude, rondas)), ..Cajero::rapido(cuenta) }
    }

    /// El primer paso de un ingreso.
    fn empieza(&self) -> Effect<Msg> {
        match self.antifraude {
            Some((servicio, _)) => Effect::Send(servicio, Msg::Verifica(1)),
            None => Effect::Send(self.cuenta, Msg::Lee),
        }
    }
}

impl Cuenta {
    pub fn new(saldo: i64) -> Self {
        Cuenta { saldo }
    }
}

/// El saldo con el que empieza la cuenta.
pub const SALDO_INICIAL: i64 = 100;
/// Lo que ingresa el cajero rápido, en orden.
pub const INGRESOS_RAPIDO: [i64; 3] = [10, 20, 30];
/// Lo que ingresa el cajero lento.
pub const INGRESO_LENTO: i64 = 5;
/// Cuántas comprobaciones hace el cajero lento antes de tocar la cuenta.
pub const RONDAS: u32 = 10;

/// Lo que pasó con una semilla.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resultado {
    pub semilla: u64,
    pub saldo: i64,
    pub esperado: i64,
    pub hechos: Vec<u32>,
    pub traza: String,
}

impl Resultado {
    /// ¿Se cumple la invariante? Todo lo ingresado está en la cuenta.
    pub fn correcto(&self) -> bool {
        self.saldo == self.esperado
    }
}

// ANCHOR: escenario
/// Una ejecución completa con una semilla: la cuenta y el servicio
/// antifraude en el shard 1, el cajero rápido en el 0 y el lento en el 1.
pub fn escenario(semilla: u64) -> Resultado {
    let mut sim = Simulador::new(semilla, 2);
    let cuenta = sim.spawn(1, Box::new(Cuenta::new(SALDO_INICIAL)));
    let antifraude = sim.spawn(1, Box::new(Antifraude));
    let rapido = sim.spawn(0, Box::new(Cajero::rapido(cuenta)));
    let lento = sim.spawn(1, Box::new(Cajero::lento(cuenta, antifraude, RONDAS)));
    for cantidad in INGRESOS_RAPIDO {
        sim.envia(rapido, Msg::Ingresa(cantidad)).expect("los buzones empiezan vacíos");
    }
    sim.envia(lento, Msg::Ingresa(INGRESO_LENTO)).unwrap();
    sim.corre(10_000);
    // Al final, preguntamos a cada uno cómo ha quedado.
    for dir in [cuenta, rapido, lento] {
        sim.envia(dir, Msg::Consulta).unwrap();
    }
    sim.corre(100);
    let mut resultado = Resultado {
        semilla,
        saldo: 0,
        esperado: SALDO_INICIAL + INGRESOS_RAPIDO.iter().sum::<i64>() + INGRESO_LENTO,
        hechos: Vec::new(),
        traza: sim.traza().to_string(),
    };
    for msg in sim.salida() {
        match msg {
            Msg::Total(saldo) => resultado.saldo = saldo,
            Msg::Hechos(n) => resultado.hechos.push(n),
            _ => {}
        }
    }
    resultado
}
// ANCHOR_END: escenario

/// Prueba las semillas de `desde` a `hasta` (sin incluirla) y devuelve
/// cuántas fallan y la primera que falla.
pub fn busca(desde: u64, hasta: u64) -> (u64, Option<Resultado>) {
    let mut fallos = 0;
    let mut primera = None;
    for semilla in desde..hasta {
        let r = escenario(semilla);
        if !r.correcto() {
            fallos += 1;
            primera.get_or_insert(r);
        }
    }
    (fallos, primera)
}

/// El capítulo del libro: cada bloque de Rust se compila como prueba de
/// documentación de este crate.
#[cfg(doctest)]
#[doc = include_str!("../../../book/13-determinismo.md")]
pub struct CapituloDelLibro;
