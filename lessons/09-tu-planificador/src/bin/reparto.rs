//! Por dónde le llega el trabajo a cada hilo del ejecutor robo. Los
//! contadores del ejecutor (robos, tareas robadas, tareas sacadas de la cola
//! global) suman lo que hicieron todos los trabajadores; aquí cada tarea
//! apunta, en cada sondeo, qué trabajador la sondea, y se cuenta a cuántas
//! tareas distintas llegó cada uno. El trabajador que no lanzó la carga solo
//! puede recibir una tarea robándola o sacándola de la cola global, así que
//! sus tareas distintas menos todas las robadas son, como mínimo, las que le
//! llegaron por la cola global. No mide tiempos: anotar cada sondeo cuesta.
//!
//! ```text
//! cargo run -p leccion-09 --release --bin reparto
//! cargo run -p leccion-09 --bin reparto -- --rapido   # lo que usan las pruebas
//! ```

use std::sync::atomic::Ordering;

use leccion_09::cargas::{Carga, PorTrabajador, QuienSondea, Tamanos, ejecuta_anotada};
use leccion_09::planificador::{Ejecutor, Robo};
use medidas::entero;
use opciones::clap::{self, Parser};

/// Opciones de `reparto`.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(about = "Cuenta, trabajador por trabajador, a cuántas tareas llega cada hilo del ejecutor robo.")]
struct Opciones {
    /// Cargas pequeñas y dos ejecuciones (lo que usan las pruebas)
    #[arg(long)]
    rapido: bool,
    /// Ejecuciones de cada carga [por defecto: 7; con --rapido, 2]
    #[arg(long, value_name = "N", value_parser = opciones::entre(1usize, 50))]
    repeticiones: Option<usize>,
}

/// Lo que se anota de una ejecución.
struct Ejecucion {
    /// Robos, tareas robadas, desbordes y tareas sacadas de la cola global (de todos).
    contadores: [u64; 4],
    /// El trabajador que sondeó primero la tarea que lanza a las demás.
    lanzador: usize,
    por_trabajador: Vec<PorTrabajador>,
}

const HILOS: usize = 2;

fn main() {
    let o: Opciones = opciones::de_la_linea_de_ordenes();
    let t = if o.rapido { Tamanos::rapidos() } else { Tamanos::normales() };
    let r = o.repeticiones.unwrap_or(if o.rapido { 2 } else { 7 });
    println!("Por dónde le llega el trabajo a cada hilo del ejecutor robo, con {HILOS} hilos trabajadores.");
    println!("{r} ejecuciones de cada carga. Cada tarea apunta qué hilo la sondea; no se mide el tiempo.");
    for carga in [Carga::CedeMuchas, Carga::LanzaMuchas] {
        let ejecuciones: Vec<Ejecucion> = (0..r).map(|_| una(carga, &t)).collect();
        imprime(carga, &t, &ejecuciones);
    }
}

/// Una ejecución de `carga` en un ejecutor robo nuevo.
fn una(carga: Carga, t: &Tamanos) -> Ejecucion {
    let ejecutor = Robo::nuevo(HILOS);
    let n = match carga {
        Carga::CedeMuchas => t.cedentes,
        _ => t.lanzadas,
    };
    let quien = QuienSondea::nuevo(n + 1, HILOS);
    let terminadas = ejecuta_anotada(&ejecutor, carga, t, &quien);
    assert_eq!(terminadas, n);
    let k = ejecutor.contadores();
    let contadores = [&k.robos, &k.robadas, &k.desbordes, &k.del_inyector].map(|c| c.load(Ordering::Relaxed));
    ejecutor.apaga();
    Ejecucion {
        contadores,
        lanzador: quien.primero_de(n).expect("alguien sondeó la tarea que lanza"),
        por_trabajador: quien.por_trabajador(&[n]),
    }
}

/// Mediana, mínimo y máximo, como texto: `12 [3-40]`.
fn resumen(valores: impl IntoIterator<Item = u64>) -> String {
    let mut v: Vec<u64> = valores.into_iter().collect();
    v.sort_unstable();
    match (v.first(), v.last()) {
        (Some(&min), Some(&max)) => format!("{} [{}-{}]", entero(v[v.len() / 2]), entero(min), entero(max)),
        _ => "-".to_string(),
    }
}

fn imprime(carga: Carga, t: &Tamanos, e: &[Ejecucion]) {
    println!();
    println!("{}: {}", carga.nombre(), carga.descripcion(t));
    println!("  por ejecución, mediana [mínimo-máximo], contando a los dos trabajadores:");
    let nombres = ["robos", "tareas robadas", "desbordes", "tareas sacadas de la cola global"];
    for (j, nombre) in nombres.iter().enumerate() {
        println!("    {nombre:<33} {}", resumen(e.iter().map(|x| x.contadores[j])));
    }
    println!("  por trabajador (el lanzador es el que sondeó la tarea que lanza a las demás):");
    println!("    {:<16} {:>24} {:>24} {:>24}", "", "tareas que sondeó", "tareas que empezó", "sondeos");
    let quien = |x: &Ejecucion, lanzador: bool| {
        let w = if lanzador { x.lanzador } else { 1 - x.lanzador };
        x.por_trabajador[w]
    };
    for (etiqueta, lanzador) in [("el lanzador", true), ("el otro", false)] {
        println!(
            "    {etiqueta:<16} {:>24} {:>24} {:>24}",
            resumen(e.iter().map(|x| quien(x, lanzador).tareas as u64)),
            resumen(e.iter().map(|x| quien(x, lanzador).empezadas as u64)),
            resumen(e.iter().map(|x| quien(x, lanzador).sondeos)),
        );
    }
    // Al otro solo le llega una tarea robándola o de la cola global: sus
    // tareas distintas menos todas las robadas (por cualquiera) le llegaron,
    // como mínimo, por la cola global.
    let minimo = e.iter().map(|x| (quien(x, false).tareas as u64).saturating_sub(x.contadores[1]));
    println!("  al otro le llegaron por la cola global, como mínimo (sus tareas menos todas las robadas):");
    println!("    {}", resumen(minimo));
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn opciones_y_resumen() {
        let a = |v: &[&str]| opciones::lee::<Opciones>(v.iter().copied());
        assert_eq!(a(&["--rapido"]).unwrap().repeticiones, None);
        assert_eq!(a(&["--repeticiones", "3"]).unwrap().repeticiones, Some(3));
        assert!(a(&["--repeticiones", "0"]).is_err());
        assert_eq!(resumen([5, 1, 9]), "5 [1-9]");
        assert_eq!(resumen([]), "-");
        assert_eq!(resumen([43_111, 26_070, 100_000]), "43 111 [26 070-100 000]");
    }

    #[test]
    fn cada_tarea_se_cuenta_una_vez_y_el_otro_no_se_inventa_tareas() {
        let t = Tamanos::rapidos();
        for carga in [Carga::CedeMuchas, Carga::LanzaMuchas] {
            let x = una(carga, &t);
            let n = if carga == Carga::CedeMuchas { t.cedentes } else { t.lanzadas };
            let empezadas: usize = x.por_trabajador.iter().map(|p| p.empezadas).sum();
            assert_eq!(empezadas, n, "cada hija la empieza un solo trabajador");
            assert!(x.lanzador < HILOS);
            for p in &x.por_trabajador {
                assert!(p.empezadas <= p.tareas && p.tareas <= n, "{p:?}");
            }
        }
    }
}
