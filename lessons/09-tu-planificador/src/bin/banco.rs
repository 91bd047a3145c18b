//! El banco de pruebas del capítulo: las mismas cuatro cargas en los dos
//! ejecutores de enseñanza y en el runtime multihilo de Tokio, con 1, 2, ...
//! N hilos trabajadores. Cada variante se mide varias veces, intercalada con
//! las otras (A B C, B C A, C A B...), para que el ruido de la máquina caiga
//! igual sobre las tres. Imprime la mediana, el mínimo y el máximo del tiempo
//! de reloj y del tiempo de CPU de los hilos trabajadores, y escribe un CSV.
//!
//! ```text
//! cargo run -p leccion-09 --release --bin banco               # N = núcleos (hasta 16)
//! cargo run -p leccion-09 --release --bin banco -- --hilos 8
//! cargo run -p leccion-09 --release --bin banco -- --carga abanico
//! cargo run -p leccion-09 --bin banco -- --rapido             # lo que usan las pruebas
//! ```

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::time::Instant;

use medidas::mediana_y_extremos as resumen;
use medidas::{entero, numero};

use leccion_09::cargas::{Carga, Tamanos, Tokio, ejecuta};
use leccion_09::planificador::{Ejecutor, Robo, UnaCola};
use leccion_09::{
    CABECERA, Fila, OpcionesBanco, cpu_de_hilos, junta_filas, lee_csv, modelo_de_cpu, nucleos, se_distinguen,
};

/// Los tres ejecutores y el prefijo del nombre de sus hilos trabajadores.
const EJECUTORES: [(&str, &str); 3] = [("una-cola", "una-cola-"), ("robo", "robo-"), ("tokio", "tokio-trab")];

/// Uno de los tres ejecutores, vivo mientras se mide su combinación.
enum Variante {
    UnaCola(UnaCola),
    Robo(Robo),
    Tokio(Tokio),
}

/// Lo que se anota de cada ejecución medida.
struct Medida {
    ms: f64,
    cpu_ms: f64,
    cpu_por_hilo: Vec<f64>,
    /// Solo del ejecutor robo: robos, tareas robadas, desbordes y tareas
    /// sacadas de la cola global en esta ejecución.
    contadores: [u64; 4],
}

fn main() {
    let opciones: OpcionesBanco = opciones::de_la_linea_de_ordenes();
    let tamanos = if opciones.rapido { Tamanos::rapidos() } else { Tamanos::normales() };
    let nucleos = nucleos();
    let maquina = opciones
        .maquina
        .clone()
        .or_else(modelo_de_cpu)
        .unwrap_or_else(|| "desconocida (este sistema no tiene /proc/cpuinfo)".to_string());
    let modo = if cfg!(debug_assertions) { "debug (los tiempos no valen: usa --release)" } else { "release" };
    let r = opciones.repeticiones();

    println!("Banco de planificadores: una-cola (a), robo (b) y el runtime multihilo de Tokio");
    println!("Máquina: {maquina}, {nucleos} núcleos (available_parallelism); compilado en modo {modo}");
    let cargas: Vec<Carga> = Carga::TODAS
        .into_iter()
        .filter(|c| opciones.cargas.is_empty() || opciones.cargas.iter().any(|n| n == c.nombre()))
        .collect();
    println!("Cargas:");
    for &carga in &cargas {
        println!("  {:<14} {}", carga.nombre(), carga.descripcion(&tamanos));
    }
    println!("Cada variante: 1 ejecución de calentamiento y {r} medidas, intercaladas con las de las otras dos.");
    println!("reloj: tiempo de principio a fin; CPU: suma del tiempo de CPU de sus hilos trabajadores");
    println!("(de /proc/self/task). Mediana [mínimo-máximo], en ms; menos es mejor.");
    if opciones.hilos() > nucleos {
        println!("Ojo: pides {} hilos y la máquina tiene {nucleos} núcleos; los de más se turnan.", opciones.hilos());
    }
    println!();
    println!(
        "{:<14} {:>5} {:<9} {:>24} {:>24}  CPU por trabajador (mediana)",
        "carga", "hilos", "ejecutor", "reloj ms", "CPU ms"
    );

    let mut filas = Vec::new();
    let mut contadores_robo = Vec::new();
    let mut veredictos = Vec::new();
    for &carga in &cargas {
        for hilos in 1..=opciones.hilos() {
            let variantes = [
                Variante::UnaCola(UnaCola::nuevo(hilos)),
                Variante::Robo(Robo::nuevo(hilos)),
                Variante::Tokio(Tokio::nuevo(hilos)),
            ];
            for v in &variantes {
                mide_una(v, carga, &tamanos, hilos); // calentamiento
            }
            let mut medidas: [Vec<Medida>; 3] = Default::default();
            for ronda in 0..r {
                // A B C, B C A, C A B...: ninguna va siempre primera.
                for k in 0..3 {
                    let i = (ronda + k) % 3;
                    medidas[i].push(mide_una(&variantes[i], carga, &tamanos, hilos));
                }
            }
            for v in &variantes {
                apaga(v);
            }
            let mut intervalos = BTreeMap::new();
            for (i, (nombre, _)) in EJECUTORES.iter().enumerate() {
                let m = &medidas[i];
                let (ms, ms_min, ms_max) = resumen(&m.iter().map(|x| x.ms).collect::<Vec<_>>()).unwrap_or_default();
                let (cpu_ms, cpu_min, cpu_max) =
                    resumen(&m.iter().map(|x| x.cpu_ms).collect::<Vec<_>>()).unwrap_or_default();
                let cpu_por_hilo: Vec<f64> = (0..hilos)
                    .map(|h| {
                        let de_este: Vec<f64> = m.iter().filter_map(|x| x.cpu_por_hilo.get(h).copied()).collect();
                        resumen(&de_este).map_or(0.0, |r| r.0)
                    })
                    .collect();
                let por_hilo: Vec<String> = cpu_por_hilo.iter().map(|&c| numero(c, 1)).collect();
                println!(
                    "{:<14} {:>5} {:<9} {:>8} [{:>6}-{:>6}] {:>8} [{:>6}-{:>6}]  {}",
                    carga.nombre(),
                    hilos,
                    nombre,
                    numero(ms, 2),
                    numero(ms_min, 2),
                    numero(ms_max, 2),
                    numero(cpu_ms, 2),
                    numero(cpu_min, 2),
                    numero(cpu_max, 2),
                    por_hilo.join(" + ")
                );
                intervalos.insert(*nombre, ((ms_min, ms_max), (cpu_min, cpu_max), ms, cpu_ms));
                if *nombre == "robo" {
                    let suma = |j: usize| m.iter().map(|x| x.contadores[j]).sum::<u64>() / m.len() as u64;
                    let rango = |j: usize| {
                        let v: Vec<u64> = m.iter().map(|x| x.contadores[j]).collect();
                        (*v.iter().min().unwrap(), *v.iter().max().unwrap())
                    };
                    contadores_robo.push((carga, hilos, [suma(0), suma(1), suma(2), suma(3)], rango(0), rango(3)));
                }
                filas.push(Fila {
                    maquina: maquina.clone(),
                    nucleos,
                    carga: carga.nombre().to_string(),
                    ejecutor: nombre.to_string(),
                    hilos,
                    repeticiones: r,
                    ms,
                    ms_min,
                    ms_max,
                    cpu_ms,
                    cpu_min,
                    cpu_max,
                    cpu_por_hilo,
                });
            }
            veredictos.push((carga, hilos, intervalos));
        }
    }

    println!();
    println!("¿Se distinguen? Solo si los intervalos [mínimo-máximo] no se tocan:");
    for (carga, hilos, iv) in &veredictos {
        for (a, b) in [("robo", "una-cola"), ("robo", "tokio"), ("una-cola", "tokio")] {
            let (ra, ca, ma, cma) = iv[a];
            let (rb, cb, mb, cmb) = iv[b];
            let dice = |distinto: bool, x: f64, y: f64| {
                if !distinto {
                    "no se distingue".to_string()
                } else if x < y {
                    format!("{a} menos")
                } else {
                    format!("{b} menos")
                }
            };
            println!(
                "  {:<14} {} hilo(s)  {a:>8} / {b:<8}  reloj: {:<16} CPU: {}",
                carga.nombre(),
                hilos,
                dice(se_distinguen(ra, rb), ma, mb),
                dice(se_distinguen(ca, cb), cma, cmb)
            );
        }
    }

    println!();
    println!("Lo que contó el ejecutor robo, sumando a todos sus trabajadores (por ejecución, media de las medidas;");
    println!("lo que le llegó a cada trabajador lo cuenta `cargo run -p leccion-09 --release --bin reparto`):");
    println!(
        "{:<14} {:>5} {:>8} {:>9} {:>10} {:>13}  {:>12} {:>16}",
        "carga", "hilos", "robos", "robadas", "desbordes", "del inyector", "robos mín-máx", "inyector mín-máx"
    );
    for (carga, hilos, [robos, robadas, desbordes, inyector], (r0, r1), (i0, i1)) in contadores_robo {
        println!(
            "{:<14} {:>5} {:>8} {:>9} {:>10} {:>13}  {:>12} {:>16}",
            carga.nombre(),
            hilos,
            entero(robos),
            entero(robadas),
            entero(desbordes),
            entero(inyector),
            format!("{}-{}", entero(r0), entero(r1)),
            format!("{}-{}", entero(i0), entero(i1))
        );
    }

    match &opciones.csv() {
        None => println!("\n(modo rápido o cargas sueltas: no escribo el CSV; usa --csv RUTA si lo quieres)"),
        Some(ruta) => {
            let anteriores = match std::fs::read_to_string(ruta) {
                Ok(texto) => lee_csv(&texto).unwrap_or_else(|e| {
                    eprintln!("aviso: no entiendo {} ({e}); lo reescribo entero", ruta.display());
                    Vec::new()
                }),
                Err(_) => Vec::new(),
            };
            let todas = junta_filas(anteriores, &filas);
            let mut texto = String::from(CABECERA);
            texto.push('\n');
            for f in &todas {
                texto.push_str(&f.a_csv());
                texto.push('\n');
            }
            if let Some(carpeta) = ruta.parent().filter(|p| !p.as_os_str().is_empty()) {
                let _ = std::fs::create_dir_all(carpeta);
            }
            match std::fs::write(ruta, texto) {
                Ok(()) => println!(
                    "\nCSV: {} ({} filas de esta máquina, {} en total)",
                    ruta.display(),
                    filas.len(),
                    todas.len()
                ),
                Err(e) => {
                    eprintln!("error: no puedo escribir {}: {e}", ruta.display());
                    std::process::exit(1);
                }
            }
        }
    }
}

fn apaga(v: &Variante) {
    match v {
        Variante::UnaCola(e) => e.apaga(),
        Variante::Robo(e) => e.apaga(),
        Variante::Tokio(e) => e.apaga(),
    }
}

// ANCHOR: mide
/// Una ejecución de la carga: el tiempo de reloj y lo que gastó en CPU cada
/// hilo trabajador (la diferencia entre antes y después).
fn mide<E: Ejecutor>(ejecutor: &E, prefijo: &str, carga: Carga, tamanos: &Tamanos, hilos: usize) -> Medida {
    let antes = cpu_de_hilos(prefijo);
    let inicio = Instant::now();
    ejecuta(ejecutor, carga, tamanos);
    let ms = inicio.elapsed().as_secs_f64() * 1000.0;
    let despues = cpu_de_hilos(prefijo);
    let mut cpu_por_hilo: Vec<f64> =
        despues.iter().map(|(tid, fin)| fin - antes.iter().find(|(t, _)| t == tid).map_or(0.0, |(_, a)| *a)).collect();
    // De más ocupado a menos: «el primer trabajador» es el que más trabajó.
    cpu_por_hilo.sort_by(|a, b| b.total_cmp(a));
    cpu_por_hilo.truncate(hilos);
    Medida { ms, cpu_ms: cpu_por_hilo.iter().sum(), cpu_por_hilo, contadores: [0; 4] }
}
// ANCHOR_END: mide

fn mide_una(v: &Variante, carga: Carga, tamanos: &Tamanos, hilos: usize) -> Medida {
    match v {
        Variante::UnaCola(e) => mide(e, EJECUTORES[0].1, carga, tamanos, hilos),
        Variante::Robo(e) => {
            let k = e.contadores();
            let lee = || [&k.robos, &k.robadas, &k.desbordes, &k.del_inyector].map(|c| c.load(Ordering::Relaxed));
            let antes = lee();
            let mut m = mide(e, EJECUTORES[1].1, carga, tamanos, hilos);
            let despues = lee();
            m.contadores = [0, 1, 2, 3].map(|j| despues[j] - antes[j]);
            m
        }
        Variante::Tokio(e) => mide(e, EJECUTORES[2].1, carga, tamanos, hilos),
    }
}
