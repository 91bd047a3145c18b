//! `cargo run -p soluciones-13`: las tres soluciones del capítulo 13 en marcha.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use determinismo::invariante::{Escritura, primera_perdida};
use determinismo::protocolo::{self, Antifraude, Cajero, Cuenta, Msg};
use determinismo::reloj::{Limitador, espera_reintento};
use nucleo::sim::Simulador;
use nucleo::{Azar, Ctx, Dir, Effect, Isolate, Remitente};

/// La escena de la lección con el protocolo corregido: ¿acaba bien?
fn corregido(semilla: u64) -> bool {
    let mut sim = Simulador::new(semilla, 2);
    let cuenta = sim.spawn(1, Box::new(Cuenta::new(100)));
    let antifraude = sim.spawn(1, Box::new(Antifraude));
    let rapido = sim.spawn(0, Box::new(Cajero::rapido(cuenta)));
    let lento = sim.spawn(1, Box::new(Cajero::lento(cuenta, antifraude, 10)));
    for cantidad in [10, 20, 30] {
        sim.envia(rapido, Msg::Ingresa(cantidad)).unwrap();
    }
    sim.envia(lento, Msg::Ingresa(5)).unwrap();
    sim.corre(100_000);
    sim.envia(cuenta, Msg::Consulta).unwrap();
    sim.corre(10);
    sim.salida() == vec![protocolo::Msg::Total(165)]
}

/// La cuenta de la lección 13, anotando cada escritura.
struct CuentaQueAnota {
    saldo: i64,
    historia: Rc<RefCell<Vec<Escritura>>>,
}

impl Isolate for CuentaQueAnota {
    type Msg = leccion_13::Msg;

    fn handle(&mut self, msg: leccion_13::Msg, ctx: &mut Ctx) -> Effect<leccion_13::Msg> {
        use leccion_13::Msg as M;
        match msg {
            M::Lee => Effect::Reply(M::Saldo(self.saldo)),
            M::Escribe { leido, nuevo } => {
                let Remitente::Isolate(cajero) = ctx.remitente() else { return Effect::Noop };
                self.historia.borrow_mut().push(Escritura { cajero, leido, nuevo });
                self.saldo = nuevo;
                Effect::Reply(M::Escrito)
            }
            _ => Effect::Noop,
        }
    }
}

fn main() {
    println!("1. protocolo: 2 000 semillas, antes y después del arreglo");
    let (fallos, _) = leccion_13::busca(0, 2_000);
    let fallos_corregido = (0..2_000).filter(|&s| !corregido(s)).count();
    println!("   protocolo de la lección: fallan {fallos}; corregido: fallan {fallos_corregido}");

    println!("2. invariante: la primera escritura que pisa a otra");
    let (_, primera) = leccion_13::busca(0, 1_000);
    let semilla = primera.expect("alguna semilla falla").semilla;
    let historia = Rc::new(RefCell::new(Vec::new()));
    let mut sim = Simulador::new(semilla, 2);
    let cuenta = sim.spawn(1, Box::new(CuentaQueAnota { saldo: 100, historia: historia.clone() }));
    let antifraude = sim.spawn(1, Box::new(leccion_13::Antifraude));
    let rapido = sim.spawn(0, Box::new(leccion_13::Cajero::rapido(cuenta)));
    let lento = sim.spawn(1, Box::new(leccion_13::Cajero::lento(cuenta, antifraude, 10)));
    for cantidad in [10, 20, 30] {
        sim.envia(rapido, leccion_13::Msg::Ingresa(cantidad)).unwrap();
    }
    sim.envia(lento, leccion_13::Msg::Ingresa(5)).unwrap();
    sim.corre(10_000);
    let historia = historia.borrow();
    for (i, e) in historia.iter().enumerate() {
        println!("   escritura {i}: el cajero {} leyó {} y escribe {}", e.cajero, e.leido, e.nuevo);
    }
    println!("   semilla {semilla}: {:?}", primera_perdida(100, &historia));

    println!("3. reloj: el limitador y las esperas, con hora y azar del contexto");
    let mut limitador = Limitador::new(3, 10);
    for ms in [0, 0, 0, 0, 100, 100, 10_000] {
        let ctx = Ctx::nuevo(Dir { shard: 0, id: 0 }, Remitente::Fuera, 1).con_ahora(Duration::from_millis(ms));
        println!("   a los {ms:>5} ms: {}", if limitador.permite(&ctx) { "pasa" } else { "espera" });
    }
    for semilla in [1, 2, 1] {
        let mut ctx = Ctx::nuevo(Dir { shard: 0, id: 0 }, Remitente::Fuera, 1).con_azar(Azar::new(semilla));
        let esperas: Vec<_> = (0..6).map(|i| medidas::duracion(espera_reintento(i, &mut ctx))).collect();
        println!("   semilla {semilla}: {}", esperas.join(", "));
    }
}
