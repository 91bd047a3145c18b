//! Un servicio clave-valor sobre `nucleo`: un isolate almacén por shard,
//! cada clave en el shard que le toca por su hash, y un cliente que envía
//! más de lo que el servicio puede atender.
//!
//! ```text
//! cargo run -p leccion-12 --release                 # 1 s al doble de la capacidad
//! cargo run -p leccion-12 --release -- --caliente   # la mitad, a una sola clave
//! cargo run -p leccion-12 -- --rapido               # 100 ms, lo que usan las pruebas
//! ```

use std::collections::HashMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use medidas::{entero, numero};
use nucleo::{Azar, Config, Ctx, Dir, Effect, Isolate, Lleno, Nucleo, Salida, shard_de};
use opciones::clap::{self, Parser};

/// Los mensajes del servicio.
#[derive(Debug)]
enum Msg {
    Put {
        clave: u64,
        valor: u64,
    },
    Get {
        clave: u64,
    },
    /// La respuesta del almacén: de qué shard viene y el valor, si lo hay
    /// (el cliente de esta demo solo mira el shard).
    #[allow(dead_code)]
    Respuesta {
        shard: usize,
        valor: Option<u64>,
    },
    /// Para el isolate frágil: entra en pánico a propósito.
    Explota,
}

// ANCHOR: almacen
/// El almacén de un shard: solo guarda las claves que le tocan. Nadie más
/// lo toca, así que no necesita ni `Mutex` ni `Arc`.
struct Almacen {
    datos: HashMap<u64, u64>,
}

impl Isolate for Almacen {
    type Msg = Msg;

    fn handle(&mut self, msg: Msg, ctx: &mut Ctx) -> Effect<Msg> {
        let shard = ctx.yo().shard;
        match msg {
            Msg::Put { clave, valor } => {
                let anterior = self.datos.insert(clave, trabaja(valor));
                Effect::Reply(Msg::Respuesta { shard, valor: anterior })
            }
            Msg::Get { clave } => {
                let valor = self.datos.get(&clave).map(|v| trabaja(*v));
                Effect::Reply(Msg::Respuesta { shard, valor })
            }
            otro => panic!("el almacén no sabe qué hacer con {otro:?}"),
        }
    }
}
// ANCHOR_END: almacen

/// Un isolate que entra en pánico con `Explota`, en el mismo shard que un almacén.
struct Fragil;

impl Isolate for Fragil {
    type Msg = Msg;

    fn handle(&mut self, msg: Msg, _ctx: &mut Ctx) -> Effect<Msg> {
        match msg {
            Msg::Explota => panic!("el isolate frágil falla a propósito"),
            _ => Effect::Noop,
        }
    }
}

/// Un poco de cálculo por petición (unos microsegundos), para que el
/// servicio tenga un límite que el cliente pueda superar.
fn trabaja(mut x: u64) -> u64 {
    for _ in 0..RONDAS {
        x = black_box(x.rotate_left(5) ^ 0x9E37_79B9_7F4A_7C15).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    }
    x
}

const RONDAS: u32 = 2_000;

/// Opciones de la lección.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(
    name = "leccion-12",
    about = "Un almacén de claves repartido en shards, un hilo por núcleo y nada compartido."
)]
struct Opciones {
    /// Una carga de 100 ms (lo que usan las pruebas)
    #[arg(long)]
    rapido: bool,
    /// Cuánto dura la carga, en milisegundos
    #[arg(long, value_name = "N", default_value = "1000", default_value_if("rapido", "true", "100"),
          value_parser = opciones::entre(10, MAX_MS))]
    ms: u64,
    /// Carga ofrecida, en veces la capacidad estimada
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = opciones::entre(1, MAX_CARGA))]
    carga: u64,
    /// Cuántos shards (un hilo cada uno) [por defecto: uno por núcleo]
    #[arg(long, value_name = "N", default_value_t = nucleos().min(MAX_SHARDS), hide_default_value = true,
          value_parser = opciones::entre(1, MAX_SHARDS))]
    shards: usize,
    /// La mitad de las peticiones, a una sola clave
    #[arg(long)]
    caliente: bool,
}

const MAX_MS: u64 = 10_000;
const MAX_CARGA: u64 = 10;
const MAX_SHARDS: usize = 64;

fn nucleos() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

fn main() {
    let opciones: Opciones = opciones::de_la_linea_de_ordenes();
    // El pánico del isolate frágil se informa abajo, en una línea propia.
    std::panic::set_hook(Box::new(|_| {}));
    demo(opciones);
}

/// Lo que el cliente cuenta de cada shard.
#[derive(Default, Clone, Copy)]
struct PorShard {
    enviadas: u64,
    rechazadas_cola: u64,
    rechazadas_buzon: u64,
    respondidas: u64,
}

/// Cuántas peticiones por segundo atiende un núcleo: mide `trabaja` aquí mismo.
fn capacidad_por_nucleo() -> f64 {
    let n = 20_000;
    let inicio = Instant::now();
    for i in 0..n {
        black_box(trabaja(i));
    }
    n as f64 / inicio.elapsed().as_secs_f64()
}

fn demo(o: Opciones) {
    let config = Config { shards: o.shards, ..Config::default() };
    let por_nucleo = capacidad_por_nucleo();
    let nucleos = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let capacidad = por_nucleo * o.shards.min(nucleos) as f64;
    let ritmo = capacidad * o.carga as f64;
    let duracion = Duration::from_millis(o.ms);
    println!(
        "Servicio clave-valor sobre nucleo: {} shards, buzones de {}, colas de {}",
        config.shards,
        entero(config.capacidad_buzon as u64),
        entero(config.capacidad_cola as u64)
    );
    println!(
        "Capacidad estimada: {} peticiones/s ({} por núcleo); carga ofrecida: {}/s ({}x) durante {} ms{}",
        numero(capacidad, 0),
        numero(por_nucleo, 0),
        numero(ritmo, 0),
        o.carga,
        entero(o.ms),
        if o.caliente { ", la mitad a la clave 0" } else { "" }
    );
    // ANCHOR: arranca
    let nucleo = Nucleo::arranca(config, |shard| {
        let mut isolates: Vec<Box<dyn Isolate<Msg = Msg>>> = vec![Box::new(Almacen { datos: HashMap::new() })];
        if shard == 0 {
            isolates.push(Box::new(Fragil)); // el isolate 0:1
        }
        isolates
    });
    // ANCHOR_END: arranca

    let mut por_shard = vec![PorShard::default(); o.shards];
    let mut azar = Azar::new(12);
    let mut enviadas = 0u64;
    let mut explota = false;
    let inicio = Instant::now();
    while inicio.elapsed() < duracion {
        // El cliente va a ritmo fijo: envía lo que le toca hasta este instante.
        let toca = (inicio.elapsed().as_secs_f64() * ritmo) as u64;
        while enviadas < toca {
            // ANCHOR: cliente
            let clave = if o.caliente && enviadas.is_multiple_of(2) { 0 } else { azar.siguiente() % 100_000 };
            let shard = shard_de(&clave.to_le_bytes(), o.shards);
            let msg = if enviadas.is_multiple_of(4) { Msg::Get { clave } } else { Msg::Put { clave, valor: enviadas } };
            por_shard[shard].enviadas += 1;
            match nucleo.try_send(Dir { shard, id: 0 }, msg) {
                Ok(()) => {}
                Err(Lleno(_)) => por_shard[shard].rechazadas_cola += 1, // aquí, solo se cuenta
            }
            // ANCHOR_END: cliente
            enviadas += 1;
        }
        // A mitad de la carga, el isolate frágil recibe su mensaje (hasta que quepa).
        if !explota && inicio.elapsed() >= duracion / 2 {
            explota = nucleo.try_send(Dir { shard: 0, id: 1 }, Msg::Explota).is_ok();
        }
        while let Ok(salida) = nucleo.salida().try_recv() {
            anota(&mut por_shard, salida);
        }
        std::thread::sleep(Duration::from_micros(100));
    }
    // Con la cola llena toda la segunda mitad, puede que el mensaje frágil aún
    // no haya entrado: se reintenta ya sin carga, con un tope.
    let tope = Instant::now() + Duration::from_secs(5);
    while !explota && Instant::now() < tope {
        explota = nucleo.try_send(Dir { shard: 0, id: 1 }, Msg::Explota).is_ok();
        while let Ok(salida) = nucleo.salida().try_recv() {
            anota(&mut por_shard, salida);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    if !explota {
        println!("aviso: el mensaje que hace fallar al isolate frágil no cupo en 5 s");
    }
    // Espera las respuestas que faltan.
    let falta = |p: &[PorShard]| p.iter().any(|s| s.respondidas + s.rechazadas_buzon + s.rechazadas_cola < s.enviadas);
    while falta(&por_shard) {
        match nucleo.salida().recv_timeout(Duration::from_secs(10)) {
            Ok(salida) => anota(&mut por_shard, salida),
            Err(_) => {
                println!("aviso: faltan respuestas tras 10 s de espera");
                break;
            }
        }
    }
    let total = inicio.elapsed();
    let informes = nucleo.para();

    let suma = |f: fn(&PorShard) -> u64| por_shard.iter().map(f).sum::<u64>();
    println!("Peticiones enviadas:        {}", entero(enviadas));
    println!("  respondidas:              {}", entero(suma(|s| s.respondidas)));
    println!("  rechazadas, cola llena:   {}", entero(suma(|s| s.rechazadas_cola)));
    println!("  rechazadas, buzón lleno:  {}", entero(suma(|s| s.rechazadas_buzon)));
    println!(
        "Hasta la última respuesta:  {} ms ({} respuestas/s)",
        numero(total.as_secs_f64() * 1000.0, 1),
        numero(suma(|s| s.respondidas) as f64 / total.as_secs_f64(), 0)
    );
    println!("Por shard:");
    for (s, informe) in por_shard.iter().zip(&informes) {
        println!(
            "  shard {}: {:>7} enviadas, {:>7} respondidas, {:>7} rechazadas; atendió {} mensajes, {} pánico(s)",
            informe.shard,
            entero(s.enviadas),
            entero(s.respondidas),
            entero(s.rechazadas_cola + s.rechazadas_buzon),
            entero(informe.atendidos),
            informe.panicos.len()
        );
    }
    for informe in &informes {
        for panico in &informe.panicos {
            println!(
                "Pánico contenido en el shard {}: «{panico}». El shard siguió atendiendo; al parar tenía {} isolate(s) vivo(s).",
                informe.shard, informe.vivos
            );
        }
    }
}

fn anota(por_shard: &mut [PorShard], salida: Salida<Msg>) {
    match salida {
        Salida::Respuesta(Msg::Respuesta { shard, .. }) => por_shard[shard].respondidas += 1,
        Salida::Respuesta(otro) => println!("respuesta inesperada: {otro:?}"),
        Salida::Rechazado { para, .. } => por_shard[para.shard].rechazadas_buzon += 1,
    }
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn opciones() {
        let a = |v: &[&str]| opciones::lee::<Opciones>(v.iter().copied());
        assert_eq!(a(&[]).unwrap().ms, 1_000);
        assert_eq!(a(&["--rapido"]).unwrap().ms, 100);
        assert_eq!(a(&["--carga", "3"]).unwrap().carga, 3);
        assert!(a(&["--carga", "11"]).is_err());
        assert!(a(&["--caliente"]).unwrap().caliente);
        assert_eq!(a(&["--shards", "4"]).unwrap().shards, 4);
        assert!(a(&["--shards", "0"]).is_err());
        assert!(a(&["--ms"]).is_err());
        assert!(a(&["--hilos"]).unwrap_err().contains("desconocida"));
    }
}
