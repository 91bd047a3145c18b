//! El simulador es determinista: la misma semilla da la misma traza, byte a
//! byte, y semillas distintas dan órdenes distintos.

use std::collections::HashSet;

use leccion_13::{busca, escenario};
use nucleo::sim::Simulador;
use nucleo::{Ctx, Effect, Isolate};

// ANCHOR: byte_a_byte
#[test]
fn la_misma_semilla_da_la_misma_traza_byte_a_byte() {
    for semilla in 0..100 {
        let una = escenario(semilla);
        let otra = escenario(semilla);
        assert_eq!(una.traza.as_bytes(), otra.traza.as_bytes(), "semilla {semilla}: dos ejecuciones, dos trazas");
        assert_eq!(una, otra);
    }
}

#[test]
fn semillas_distintas_dan_ordenes_distintos() {
    let trazas: HashSet<String> = (0..100).map(|s| escenario(s).traza).collect();
    assert_eq!(trazas.len(), 100, "cada una de las 100 semillas debería dar un orden distinto");
}
// ANCHOR_END: byte_a_byte

#[test]
fn el_simulador_encuentra_el_error_y_la_semilla_lo_repite() {
    let (fallos, primera) = busca(0, 1_000);
    let primera = primera.expect("en 1000 semillas alguna rompe el protocolo");
    assert!(fallos > 0 && fallos < 1_000, "{fallos} fallos");
    for _ in 0..3 {
        let otra_vez = escenario(primera.semilla);
        assert!(!otra_vez.correcto(), "la semilla {} debe fallar siempre", primera.semilla);
        assert_eq!(otra_vez.saldo, primera.saldo);
    }
}

/// Un isolate que anota lo que recibe y responde el número.
struct Eco;

impl Isolate for Eco {
    type Msg = u32;

    fn handle(&mut self, msg: u32, _ctx: &mut Ctx) -> Effect<u32> {
        Effect::Reply(msg)
    }
}

#[test]
fn dentro_de_un_canal_se_respeta_el_orden() {
    // Lo que fuera envía a un mismo isolate llega en orden, con cualquier semilla.
    for semilla in 0..50 {
        let mut sim = Simulador::new(semilla, 2);
        let a = sim.spawn(0, Box::new(Eco));
        let b = sim.spawn(1, Box::new(Eco));
        for n in 0..10 {
            sim.envia(a, n).unwrap();
            sim.envia(b, 100 + n).unwrap();
        }
        sim.corre(1_000);
        let salida = sim.salida();
        let de_a: Vec<u32> = salida.iter().copied().filter(|n| *n < 100).collect();
        let de_b: Vec<u32> = salida.iter().copied().filter(|n| *n >= 100).collect();
        assert_eq!(de_a, (0..10).collect::<Vec<_>>());
        assert_eq!(de_b, (100..110).collect::<Vec<_>>());
    }
}

#[test]
fn el_reloj_virtual_avanza_con_cada_entrega() {
    let mut sim = Simulador::new(3, 1);
    let a = sim.spawn(0, Box::new(Eco));
    sim.envia(a, 1).unwrap();
    sim.envia(a, 2).unwrap();
    let mut antes = sim.ahora();
    while sim.paso() {
        assert!(sim.ahora() > antes, "cada entrega avanza el reloj virtual");
        antes = sim.ahora();
    }
    assert_eq!(sim.pasos(), 2);
}

#[test]
fn un_buzon_lleno_rechaza_tambien_en_el_simulador() {
    let mut sim = Simulador::new(0, 1).con_capacidad_buzon(2);
    let a = sim.spawn(0, Box::new(Eco));
    assert!(sim.envia(a, 1).is_ok());
    assert!(sim.envia(a, 2).is_ok());
    let devuelto = sim.envia(a, 3).expect_err("el tercero no cabe");
    assert_eq!(devuelto.0, 3, "el mensaje vuelve entero");
    assert_eq!(sim.cuentas().rechazados, 1);
}

/// La traza del reproductor del libro (`book/trazas/cajeros.json`) está al
/// día, sale igual dos veces y su semilla rompe de verdad la invariante.
#[test]
fn la_traza_del_reproductor_esta_al_dia() {
    use leccion_13::reproductor::{SEMILLA_QUE_FALLA, ruta_en_el_libro, traza_json};
    let generada = traza_json(SEMILLA_QUE_FALLA);
    assert_eq!(generada, traza_json(SEMILLA_QUE_FALLA), "dos trazas con la misma semilla difieren");
    assert!(!leccion_13::escenario(SEMILLA_QUE_FALLA).correcto(), "la semilla {SEMILLA_QUE_FALLA} ya no falla");
    assert!(generada.contains("\"alerta\":true"), "la traza no resalta la entrega que rompe la invariante");
    let guardada = std::fs::read_to_string(ruta_en_el_libro()).unwrap_or_default();
    assert!(
        guardada == generada,
        "book/trazas/cajeros.json no está al día: regénerala con `cargo run -q -p leccion-13 --bin traza-reproductor`"
    );
}
