//! Las trazas del reproductor del libro (`book/trazas/*.json`):
//!
//! - la misma semilla da la misma traza, byte a byte (se genera dos veces);
//! - las del repositorio están al día: se regeneran en memoria y deben ser
//!   idénticas a las guardadas (si no, `cargo run -q -p leccion-09 --bin trazas`);
//! - otra semilla da otra traza (la semilla decide de verdad el orden);
//! - cada escenario enseña lo que promete su título (un robo, un desborde,
//!   el tope de la ranura, un dormido que despierta).
#![cfg(feature = "traza")]

use leccion_09::trazas::{ESCENARIOS, carpeta_de_trazas};
use planificador::traza::PasoAPaso;

#[test]
fn la_misma_semilla_da_la_misma_traza_byte_a_byte() {
    for e in &ESCENARIOS {
        assert_eq!(e.genera(), e.genera(), "{}: dos trazas con la misma semilla difieren", e.archivo);
    }
}

#[test]
fn trazas_al_dia() {
    let carpeta = carpeta_de_trazas();
    for e in &ESCENARIOS {
        let ruta = carpeta.join(e.archivo);
        let guardada = std::fs::read_to_string(&ruta).unwrap_or_default();
        assert!(
            guardada == e.genera(),
            "{} no coincide con lo que genera su escenario: regénerala con `cargo run -q -p leccion-09 --bin trazas`",
            ruta.display()
        );
    }
}

#[test]
fn otra_semilla_da_otro_orden() {
    let traza = |semilla| {
        let mut p = PasoAPaso::nuevo(3, semilla);
        let e = p.ejecutor();
        let e2 = e.clone();
        planificador::Ejecutor::lanza_desligada(&e, async move {
            for _ in 0..10 {
                planificador::Ejecutor::lanza_desligada(&e2, planificador::ceder());
            }
        });
        assert!(p.corre(1_000), "el reparto no acabó en 1000 vueltas");
        p.json("t", "d", semilla)
    };
    let distintas = (1..6).map(traza).collect::<std::collections::BTreeSet<_>>().len();
    assert!(distintas > 1, "cinco semillas dieron la misma traza: la semilla no decide el orden");
}

#[test]
fn cada_escenario_ensena_lo_que_promete() {
    let tipos = |archivo: &str| {
        let e = ESCENARIOS.iter().find(|e| e.archivo == archivo).unwrap();
        e.genera()
    };
    for (archivo, tipo) in [
        ("reparto-2.json", "\"robo\""),
        ("reparto-4.json", "\"robo\""),
        ("desborde.json", "\"desborde\""),
        ("tope-lifo.json", "\"tope\""),
        ("robo-carrera.json", "\"robo\""),
        ("duerme-despierta.json", "\"despierta\""),
        ("duerme-despierta.json", "\"duerme\""),
    ] {
        assert!(tipos(archivo).contains(&format!("{{\"tipo\":{tipo}")), "{archivo} no tiene ningún evento {tipo}");
    }
}
