//! El banco de pruebas del capítulo: las mismas cuatro cargas en los dos
//! ejecutores de enseñanza y en el runtime multihilo de Tokio, con 1, 2, ...
//! N hilos trabajadores. Imprime una tabla y escribe un CSV.
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

use leccion_09::cargas::{Carga, Tamanos, Tokio, ejecuta};
use leccion_09::planificador::{Ejecutor, Robo, UnaCola};
use leccion_09::{CABECERA, Fila, junta_filas, lee_csv, lee_opciones_banco, mediana, modelo_de_cpu, nucleos};

const EJECUTORES: [&str; 3] = ["una-cola", "robo", "tokio"];

fn main() {
    let opciones = match lee_opciones_banco(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(mensaje) => {
            eprintln!("error: {mensaje}");
            std::process::exit(2);
        }
    };
    let tamanos = if opciones.rapido { Tamanos::rapidos() } else { Tamanos::normales() };
    let nucleos = nucleos();
    let maquina = opciones
        .maquina
        .clone()
        .or_else(modelo_de_cpu)
        .unwrap_or_else(|| "desconocida (este sistema no tiene /proc/cpuinfo)".to_string());
    let modo = if cfg!(debug_assertions) { "debug (los tiempos no valen: usa --release)" } else { "release" };

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
    println!(
        "Tiempo: mediana de {} ejecuciones (tras 1 de calentamiento), en ms; menos es mejor.",
        opciones.repeticiones
    );
    if opciones.hilos > nucleos {
        println!("Ojo: pides {} hilos y la máquina tiene {nucleos} núcleos; los de más se turnan.", opciones.hilos);
    }
    println!();
    println!("{:<14} {:>5} {:>10} {:>10} {:>10}", "carga", "hilos", EJECUTORES[0], EJECUTORES[1], EJECUTORES[2]);

    let mut filas = Vec::new();
    let mut robos = Vec::new();
    for &carga in &cargas {
        for hilos in 1..=opciones.hilos {
            let mut ms = BTreeMap::new();
            for nombre in EJECUTORES {
                let tiempo = match nombre {
                    "una-cola" => mide(&UnaCola::nuevo(hilos), carga, &tamanos, opciones.repeticiones),
                    "robo" => {
                        let robo = Robo::nuevo(hilos);
                        let t = mide(&robo, carga, &tamanos, opciones.repeticiones);
                        let k = robo.contadores();
                        // Por ejecución, contando también la de calentamiento.
                        let n = (opciones.repeticiones + 1) as u64;
                        robos.push((
                            carga,
                            hilos,
                            k.robos.load(Ordering::Relaxed) / n,
                            k.robadas.load(Ordering::Relaxed) / n,
                            k.desbordes.load(Ordering::Relaxed) / n,
                            k.del_inyector.load(Ordering::Relaxed) / n,
                        ));
                        t
                    }
                    _ => mide(&Tokio::nuevo(hilos), carga, &tamanos, opciones.repeticiones),
                };
                ms.insert(nombre, tiempo);
                filas.push(Fila {
                    maquina: maquina.clone(),
                    nucleos,
                    carga: carga.nombre().to_string(),
                    ejecutor: nombre.to_string(),
                    hilos,
                    ms: tiempo,
                });
            }
            println!(
                "{:<14} {:>5} {:>10.2} {:>10.2} {:>10.2}",
                carga.nombre(),
                hilos,
                ms["una-cola"],
                ms["robo"],
                ms["tokio"]
            );
        }
    }

    println!();
    println!("Lo que hizo el ejecutor robo en cada ejecución (media):");
    println!(
        "{:<14} {:>5} {:>8} {:>9} {:>10} {:>13}",
        "carga", "hilos", "robos", "robadas", "desbordes", "del inyector"
    );
    for (carga, hilos, r, rb, d, i) in robos {
        println!("{:<14} {:>5} {:>8} {:>9} {:>10} {:>13}", carga.nombre(), hilos, r, rb, d, i);
    }

    match &opciones.csv {
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

// ANCHOR: mide
/// Una ejecución de calentamiento y `repeticiones` medidas; la mediana en ms.
fn mide<E: Ejecutor>(ejecutor: &E, carga: Carga, tamanos: &Tamanos, repeticiones: usize) -> f64 {
    ejecuta(ejecutor, carga, tamanos);
    let medidas = (0..repeticiones)
        .map(|_| {
            let inicio = Instant::now();
            ejecuta(ejecutor, carga, tamanos);
            inicio.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    ejecutor.apaga();
    mediana(medidas)
}
// ANCHOR_END: mide
