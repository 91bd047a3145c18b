//! El mismo servicio clave-valor, la misma carga por encima de su capacidad,
//! cinco variantes de cuatro diseños. Cada ejecución corre en un proceso
//! aparte (este mismo programa con `--variante`), para medir el pico de
//! memoria de cada una. Cada variante se mide cinco veces, alternando el
//! orden, y la tabla da la mediana y el rango (mínimo-máximo).
//!
//! ```text
//! cargo run -p leccion-14 --release               # 1 s al doble de la capacidad, 5 veces
//! cargo run -p leccion-14 --release -- --carga 3  # al triple
//! cargo run -p leccion-14 -- --rapido             # 100 ms y una vez, lo que usan las pruebas
//! cargo run -p leccion-14 --bin grafica-comparacion           # dibuja el CSV en book/graficas/
//! ```

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use leccion_14::variantes::ejecuta;
use leccion_14::{CABECERA, Config, Escenario, Resultado, Variante, capacidad_por_nucleo, csv_por_defecto};

#[derive(Debug, Clone, PartialEq)]
struct Opciones {
    ms: u64,
    carga: u64,
    hilos: usize,
    repeticiones: u32,
    csv: Option<PathBuf>,
    /// Solo en los procesos hijos: qué variante correr, con qué claves y a qué ritmo.
    hija: Option<(Variante, Escenario, f64)>,
}

const MAX_MS: u64 = 5_000;
const MAX_CARGA: u64 = 10;
/// El tope de peticiones por segundo: a 5 s, diez millones de peticiones.
const MAX_RITMO: f64 = 2_000_000.0;

fn lee_opciones(args: impl IntoIterator<Item = String>) -> Result<Opciones, String> {
    let nucleos = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let mut o = Opciones {
        ms: 1_000,
        carga: 2,
        hilos: nucleos.min(64),
        repeticiones: 5,
        csv: Some(csv_por_defecto()),
        hija: None,
    };
    let mut ritmo = None;
    let mut variante = None;
    let mut escenario = Escenario::Uniforme;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rapido" => {
                o.ms = 100;
                o.repeticiones = 1;
                if o.csv.as_ref() == Some(&csv_por_defecto()) {
                    o.csv = None; // el modo rápido no pisa los resultados de verdad
                }
            }
            "--ms" => o.ms = numero(args.next(), "--ms", 10, MAX_MS)?,
            "--carga" => o.carga = numero(args.next(), "--carga", 1, MAX_CARGA)?,
            "--hilos" => o.hilos = numero(args.next(), "--hilos", 1, 64)? as usize,
            "--repeticiones" => o.repeticiones = numero(args.next(), "--repeticiones", 1, 20)? as u32,
            "--csv" => o.csv = Some(PathBuf::from(args.next().ok_or("falta la ruta después de --csv")?)),
            "--ritmo" => ritmo = Some(numero(args.next(), "--ritmo", 1, MAX_RITMO as u64)? as f64),
            "--variante" => {
                let nombre = args.next().ok_or("falta el nombre después de --variante")?;
                variante = Some(Variante::desde_nombre(&nombre).ok_or(format!(
                    "--variante espera tokio_sin_limite, tokio_semaforo, tokio_semaforo_mitad, rayon o nucleo, no «{nombre}»"
                ))?);
            }
            "--escenario" => {
                let nombre = args.next().ok_or("falta el nombre después de --escenario")?;
                escenario = Escenario::desde_nombre(&nombre)
                    .ok_or(format!("--escenario espera uniforme, caliente o variable, no «{nombre}»"))?;
            }
            otro => {
                return Err(format!(
                    "opción desconocida «{otro}»; usa --rapido, --ms N, --carga N, --hilos N, --repeticiones N o --csv RUTA"
                ));
            }
        }
    }
    match (variante, ritmo) {
        (Some(v), Some(r)) => o.hija = Some((v, escenario, r)),
        (None, None) => {}
        _ => return Err("--variante y --ritmo van juntas".into()),
    }
    Ok(o)
}

fn numero(valor: Option<String>, opcion: &str, min: u64, max: u64) -> Result<u64, String> {
    let valor = valor.ok_or(format!("falta el número después de {opcion}"))?;
    match valor.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!("{opcion} espera un número entre {min} y {max}, no «{valor}»")),
    }
}

fn main() {
    let o = match lee_opciones(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(mensaje) => {
            eprintln!("error: {mensaje}");
            std::process::exit(2);
        }
    };
    if let Some((variante, escenario, ritmo)) = o.hija {
        // Proceso hijo: una variante, una línea de resultado.
        let r = ejecuta(variante, &Config::con(escenario, o.hilos, ritmo, Duration::from_millis(o.ms)));
        println!("RESULTADO;{}", r.a_csv());
        return;
    }
    compara(&o);
}

/// Un tiempo en µs, con la unidad que se lee mejor.
fn tiempo(us: u64) -> String {
    match us {
        0..1_000 => format!("{us} µs"),
        1_000..1_000_000 => format!("{:.1} ms", us as f64 / 1e3),
        _ => format!("{:.2} s", us as f64 / 1e6),
    }
}

/// Mediana, mínimo y máximo (la mediana de un número par de valores es la
/// más baja de las dos centrales).
fn mmm(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[(v.len() - 1) / 2], v[0], v[v.len() - 1])
}

/// Una ejecución de una variante, en su propio proceso.
fn ejecuta_hija(o: &Opciones, v: Variante, escenario: Escenario, ritmo: f64) -> Result<Resultado, String> {
    let programa = std::env::current_exe().expect("no sé dónde estoy");
    let salida = Command::new(&programa)
        .args(["--variante", v.nombre(), "--escenario", escenario.nombre()])
        .args(["--ritmo", &format!("{ritmo:.0}"), "--ms", &o.ms.to_string(), "--hilos", &o.hilos.to_string()])
        .output()
        .map_err(|e| format!("no pude lanzar el proceso hijo: {e}"))?;
    let texto = String::from_utf8_lossy(&salida.stdout);
    texto
        .lines()
        .find_map(|l| l.strip_prefix("RESULTADO;"))
        .and_then(|l| Resultado::desde_csv(l).ok())
        .ok_or_else(|| String::from_utf8_lossy(&salida.stderr).trim().to_string())
}

fn compara(o: &Opciones) {
    let por_nucleo = capacidad_por_nucleo();
    let ritmo = (por_nucleo * o.hilos as f64 * o.carga as f64).min(MAX_RITMO).round();
    let config = Config::con(Escenario::Uniforme, o.hilos, ritmo, Duration::from_millis(o.ms));
    println!("El mismo servicio clave-valor con cinco variantes, cada ejecución en su proceso");
    println!(
        "Capacidad medida: {por_nucleo:.0} peticiones/s por núcleo. Carga: {ritmo:.0}/s ({}x la de {} hilos) durante {} ms = {} peticiones",
        o.carga,
        o.hilos,
        o.ms,
        config.peticiones()
    );
    println!(
        "Límites: Semaphore de {} permisos (Semaphore/2: {}); nucleo con {} shards, colas de {} y buzones de {}",
        config.limite, config.limite_mitad, o.hilos, config.cola, config.buzon
    );
    // Las repeticiones, alternando el orden: en la repetición k, cada
    // escenario empieza por una variante distinta. Así una racha de ruido de
    // la máquina no cae siempre sobre la misma variante.
    let mut filas: Vec<Resultado> = Vec::new();
    let n = Variante::TODAS.len();
    for k in 0..o.repeticiones {
        for escenario in Escenario::TODOS {
            for j in 0..n {
                let v = Variante::TODAS[(j + k as usize) % n];
                match ejecuta_hija(o, v, escenario, ritmo) {
                    Ok(mut r) => {
                        r.repeticion = k;
                        filas.push(r);
                    }
                    Err(e) => println!("{} ({}, repetición {k}) falló: {e}", v.etiqueta(), escenario.nombre()),
                }
            }
        }
    }
    println!("\n{} ejecuciones por variante, en orden alternado. Cada celda: mediana [mínimo-máximo].", o.repeticiones);
    for escenario in Escenario::TODOS {
        println!();
        match escenario {
            Escenario::Uniforme => println!("Claves repartidas al azar:"),
            Escenario::Caliente => println!("Tres de cada cuatro peticiones a la clave 0:"),
            Escenario::Variable => println!("Claves al azar; una de cada diez peticiones calcula 11 veces más:"),
        }
        println!(
            "{:<28} {:>10} {:>27} {:>10} {:>25} {:>18} {:>8} {:>9}",
            "variante", "rechazo", "por segundo", "p50", "p99", "pico (MiB)", "última", "robos"
        );
        for v in Variante::TODAS {
            let de: Vec<&Resultado> = filas.iter().filter(|f| f.variante == v && f.escenario == escenario).collect();
            if de.is_empty() {
                continue;
            }
            let col = |f: &dyn Fn(&Resultado) -> f64| mmm(de.iter().map(|r| f(r)).collect());
            let rech = col(&|r| 100.0 * r.rechazadas as f64 / r.ofrecidas.max(1) as f64);
            let rend = col(&|r| r.rendimiento);
            let p50 = col(&|r| r.p50_us as f64);
            let p99 = col(&|r| r.p99_us as f64);
            let pico = col(&|r| r.pico_mib);
            let ultima = col(&|r| r.hasta_la_ultima_ms as f64 * 1000.0);
            let robos = if de.iter().all(|r| r.robos >= 0) {
                let (m, _, _) = col(&|r| r.robos as f64);
                format!("{m:.0}")
            } else {
                "-".to_string()
            };
            let t = |x: f64| tiempo(x as u64);
            println!(
                "{:<28} {:>9.0}% {:>27} {:>10} {:>25} {:>18} {:>8} {:>9}",
                v.etiqueta(),
                rech.0,
                format!("{:.0} [{:.0}-{:.0}]", rend.0, rend.1, rend.2),
                t(p50.0),
                format!("{} [{}-{}]", t(p99.0), t(p99.1), t(p99.2)),
                format!("{:.1} [{:.1}-{:.1}]", pico.0, pico.1, pico.2),
                t(ultima.0),
                robos
            );
        }
    }
    if let Some(ruta) = &o.csv {
        if let Some(carpeta) = ruta.parent() {
            let _ = std::fs::create_dir_all(carpeta);
        }
        let texto: String = std::iter::once(CABECERA.to_string())
            .chain(filas.iter().map(Resultado::a_csv))
            .collect::<Vec<_>>()
            .join("\n")
            + "\n";
        match std::fs::write(ruta, texto) {
            Ok(()) => println!("\nCSV escrito en {}", ruta.display()),
            Err(e) => println!("\nno pude escribir {}: {e}", ruta.display()),
        }
    }
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn opciones() {
        let a = |v: &[&str]| lee_opciones(v.iter().map(|s| s.to_string()));
        let o = a(&["--rapido"]).unwrap();
        assert_eq!((o.ms, o.csv, o.repeticiones), (100, None, 1));
        assert_eq!(a(&[]).unwrap().repeticiones, 5);
        assert_eq!(a(&["--repeticiones", "7"]).unwrap().repeticiones, 7);
        assert!(a(&["--repeticiones", "0"]).is_err());
        assert_eq!(mmm(vec![3.0, 1.0, 2.0, 5.0, 4.0]), (3.0, 1.0, 5.0));
        assert_eq!(a(&[]).unwrap().csv, Some(csv_por_defecto()));
        assert_eq!(a(&["--rapido", "--csv", "x.csv"]).unwrap().csv, Some(PathBuf::from("x.csv")));
        assert_eq!(
            a(&["--variante", "rayon", "--ritmo", "100"]).unwrap().hija,
            Some((Variante::Rayon, Escenario::Uniforme, 100.0))
        );
        let o = a(&["--variante", "nucleo", "--escenario", "caliente", "--ritmo", "5"]).unwrap();
        assert_eq!(o.hija, Some((Variante::Nucleo, Escenario::Caliente, 5.0)));
        assert!(a(&["--escenario", "tibio"]).is_err());
        assert!(a(&["--variante", "rayon"]).is_err());
        assert!(a(&["--variante", "otra", "--ritmo", "1"]).is_err());
        assert!(a(&["--carga", "0"]).is_err());
        assert!(a(&["--hilo"]).unwrap_err().contains("desconocida"));
    }

    #[test]
    fn tiempos_legibles() {
        assert_eq!(tiempo(250), "250 µs");
        assert_eq!(tiempo(2_500), "2.5 ms");
        assert_eq!(tiempo(2_500_000), "2.50 s");
    }
}
