//! Busca, probando semillas, un orden de mensajes que rompe el protocolo de
//! los cajeros; imprime la primera semilla que falla y su traza, y la
//! reproduce.
//!
//! ```text
//! cargo run -p leccion-13 --release                  # semillas 0..1000
//! cargo run -p leccion-13 --release -- --semilla 7   # repite una semilla
//! cargo run -p leccion-13 --release -- --hilos 200   # el mismo protocolo, con hilos
//! cargo run -p leccion-13 -- --rapido                # 200 semillas, lo que usan las pruebas
//! ```

use std::time::{Duration, Instant};

use leccion_13::{
    Antifraude, Cajero, Cuenta, INGRESO_LENTO, INGRESOS_RAPIDO, Msg, RONDAS, Resultado, SALDO_INICIAL, busca, escenario,
};
use medidas::{entero, numero};
use nucleo::{Config, Dir, Isolate, Nucleo, Salida};
use opciones::clap::{self, Parser};

#[derive(Debug, Clone, PartialEq, Eq)]
enum Modo {
    Busca { semillas: u64 },
    Repite { semilla: u64 },
    Hilos { veces: u64 },
}

const MAX_SEMILLAS: u64 = 1_000_000;
const MAX_VECES: u64 = 10_000;

/// Opciones de la lección: cada una elige un modo.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(
    name = "leccion-13",
    about = "Busca, semilla a semilla, un orden de mensajes que rompe el protocolo de los cajeros."
)]
struct Opciones {
    /// 200 semillas (lo que usan las pruebas)
    #[arg(long)]
    rapido: bool,
    /// Cuántas semillas probar [por defecto: 1000]
    #[arg(long, value_name = "N", value_parser = opciones::entre(1, MAX_SEMILLAS))]
    semillas: Option<u64>,
    /// Repite una semilla y enseña su traza
    #[arg(long, value_name = "N", conflicts_with_all = ["semillas", "hilos"], value_parser = opciones::numero::<u64>)]
    semilla: Option<u64>,
    /// El mismo protocolo con hilos de verdad, N veces
    #[arg(long, value_name = "N", conflicts_with = "semillas", value_parser = opciones::entre(1, MAX_VECES))]
    hilos: Option<u64>,
}

impl Opciones {
    fn modo(&self) -> Modo {
        match (self.semilla, self.hilos) {
            (Some(semilla), _) => Modo::Repite { semilla },
            (None, Some(veces)) => Modo::Hilos { veces },
            (None, None) => Modo::Busca { semillas: self.semillas.unwrap_or(if self.rapido { 200 } else { 1_000 }) },
        }
    }
}

fn main() {
    let opciones: Opciones = opciones::de_la_linea_de_ordenes();
    match opciones.modo() {
        Modo::Busca { semillas } => buscar(semillas),
        Modo::Repite { semilla } => repetir(semilla),
        Modo::Hilos { veces } => con_hilos(veces),
    }
}

fn describe(r: &Resultado) -> String {
    format!("saldo final {}, esperado {}; ingresos terminados por cajero: {:?}", r.saldo, r.esperado, r.hechos)
}

fn buscar(semillas: u64) {
    println!(
        "Protocolo de los cajeros: saldo inicial {SALDO_INICIAL}, ingresos {INGRESOS_RAPIDO:?} (rápido) y \
         {INGRESO_LENTO} (lento, {RONDAS} comprobaciones antes)"
    );
    // ANCHOR: busca
    let inicio = Instant::now();
    let (fallos, primera) = busca(0, semillas);
    let tiempo = inicio.elapsed();
    // ANCHOR_END: busca
    println!(
        "Semillas probadas: {} en {} ms; fallan {} ({} %)",
        entero(semillas),
        numero(tiempo.as_secs_f64() * 1000.0, 1),
        entero(fallos),
        numero(100.0 * fallos as f64 / semillas as f64, 1)
    );
    let Some(r) = primera else {
        println!("Ninguna semilla rompe la invariante.");
        return;
    };
    println!("Primera semilla que falla: {} ({})", r.semilla, describe(&r));
    println!("Su traza:");
    print!("{}", r.traza);
    // ANCHOR: repite
    let otra_vez = escenario(r.semilla);
    let identica = otra_vez.traza == r.traza;
    // ANCHOR_END: repite
    println!(
        "Ejecutada otra vez con la misma semilla: traza {} ({} bytes)",
        if identica { "idéntica, byte a byte" } else { "DISTINTA" },
        entero(r.traza.len() as u64)
    );
    println!("Repítela cuando quieras con: cargo run -p leccion-13 --release -- --semilla {}", r.semilla);
}

fn repetir(semilla: u64) {
    let r = escenario(semilla);
    println!("Semilla {semilla}:");
    print!("{}", r.traza);
    println!("{}: {}", if r.correcto() { "Correcta" } else { "Falla" }, describe(&r));
}

/// El mismo protocolo, los mismos isolates, en el runtime con hilos.
fn con_hilos(veces: u64) {
    let inicio = Instant::now();
    let mut fallos = 0;
    for _ in 0..veces {
        if !una_vez_con_hilos() {
            fallos += 1;
        }
    }
    println!(
        "Con hilos: {} ejecuciones en {} ms; fallan {} ({} %). Ninguna se puede repetir a voluntad.",
        entero(veces),
        numero(inicio.elapsed().as_secs_f64() * 1000.0, 1),
        entero(fallos),
        numero(100.0 * fallos as f64 / veces as f64, 1)
    );
}

fn una_vez_con_hilos() -> bool {
    let (cuenta, antifraude) = (Dir { shard: 1, id: 0 }, Dir { shard: 1, id: 1 });
    let (rapido, lento) = (Dir { shard: 0, id: 0 }, Dir { shard: 1, id: 2 });
    let nucleo: Nucleo<Msg> = Nucleo::arranca(Config { shards: 2, ..Config::default() }, move |shard| {
        if shard == 0 {
            vec![Box::new(Cajero::rapido(cuenta)) as Box<dyn Isolate<Msg = Msg>>]
        } else {
            vec![
                Box::new(Cuenta::new(SALDO_INICIAL)),
                Box::new(Antifraude),
                Box::new(Cajero::lento(cuenta, antifraude, RONDAS)),
            ]
        }
    });
    for cantidad in INGRESOS_RAPIDO {
        nucleo.try_send(rapido, Msg::Ingresa(cantidad)).unwrap();
    }
    nucleo.try_send(lento, Msg::Ingresa(INGRESO_LENTO)).unwrap();
    // Pregunta a los cajeros hasta que hayan terminado los cuatro ingresos.
    let pregunta = |dir| {
        nucleo.try_send(dir, Msg::Consulta).unwrap();
        match nucleo.salida().recv_timeout(Duration::from_secs(10)) {
            Ok(Salida::Respuesta(m)) => m,
            otra => panic!("respuesta inesperada: {otra:?}"),
        }
    };
    loop {
        let hechos: u32 = [rapido, lento]
            .into_iter()
            .map(|d| match pregunta(d) {
                Msg::Hechos(n) => n,
                _ => 0,
            })
            .sum();
        if hechos == 4 {
            break;
        }
    }
    let correcto = pregunta(cuenta) == Msg::Total(SALDO_INICIAL + INGRESOS_RAPIDO.iter().sum::<i64>() + INGRESO_LENTO);
    nucleo.para();
    correcto
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn opciones() {
        let a = |v: &[&str]| opciones::lee::<Opciones>(v.iter().copied()).map(|o| o.modo());
        assert_eq!(a(&[]).unwrap(), Modo::Busca { semillas: 1_000 });
        assert_eq!(a(&["--rapido"]).unwrap(), Modo::Busca { semillas: 200 });
        assert_eq!(a(&["--semilla", "7"]).unwrap(), Modo::Repite { semilla: 7 });
        assert_eq!(a(&["--hilos", "5"]).unwrap(), Modo::Hilos { veces: 5 });
        assert!(a(&["--semilla"]).is_err());
        assert!(a(&["--hilos", "0"]).is_err());
        assert!(a(&["--hilo"]).unwrap_err().contains("desconocida"));
    }
}
