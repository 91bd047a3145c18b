//! Un eco por TCP construido de tres maneras y medido con la misma carga
//! abierta, por loopback: Tokio multihilo, un *runtime* de Tokio de un hilo
//! por núcleo con `SO_REUSEPORT`, y un anillo de `io_uring` por núcleo (si el
//! sistema lo permite). Cada servidor corre en un proceso aparte (este mismo
//! programa con `--servidor`) y termina cuando la medida acaba.
//!
//! ```text
//! cargo run -p leccion-18 --release                        # 4 cargas, 5 repeticiones, 1 s cada una
//! cargo run -p leccion-18 --release -- --ritmos 5000,20000  # otras cargas
//! cargo run -p leccion-18 --release -- --sin-uring         # como si no hubiera io_uring
//! cargo run -p leccion-18 -- --rapido                      # lo que usan las pruebas
//! cargo run -p leccion-18 --bin grafica-latencia-carga     # dibuja el CSV en book/graficas/
//! ```

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use leccion_18::carga::{Carga, genera};
use leccion_18::llamadas::{LLAMADAS, Recuento, acaba_perf, cambios_de_contexto, empieza_perf, lee_perf};
use leccion_18::sistema::{io_uring_disponible, nucleos_permitidos, por_que_no_hay_io_uring};
use leccion_18::{CABECERA, Fila, Servidor, csv_por_defecto, cuenta_migraciones, resumen, se_solapan};
use medidas::{entero, numero, percentil};
use opciones::clap::{self, Parser};

/// Opciones de la lección.
#[derive(Debug, Clone, Parser)]
#[command(
    name = "leccion-18",
    about = "Un eco por TCP de tres maneras, a varias cargas fijas: Tokio multihilo, un runtime por núcleo, io_uring."
)]
struct Opciones {
    /// Las mismas cargas, 50 ms cada una, una vez y sin CSV salvo que lo pidas (lo que usan las pruebas)
    #[arg(long)]
    rapido: bool,
    /// Las cargas, en peticiones por segundo, separadas por comas
    #[arg(long, value_name = "A,B,C", value_delimiter = ',', default_value = "10000,20000,40000,80000",
          value_parser = opciones::entre(100u64, 500_000))]
    ritmos: Vec<u64>,
    /// Cuánto dura cada medida, en milisegundos
    #[arg(long, value_name = "N", default_value = "1000", default_value_if("rapido", "true", "50"),
          value_parser = opciones::entre(10u64, 10_000))]
    ms: u64,
    /// Ejecuciones de cada servidor y carga, en orden alternado
    #[arg(long, value_name = "N", default_value = "5", default_value_if("rapido", "true", "1"),
          value_parser = opciones::entre(1u32, 20))]
    repeticiones: u32,
    /// Hilos de cada servidor [por defecto: los núcleos que puede usar el proceso]
    #[arg(long, value_name = "N", default_value_t = nucleos_permitidos().map(|n| n.len()).unwrap_or(1).clamp(1, 64),
          hide_default_value = true, value_parser = opciones::entre(1usize, 64))]
    hilos: usize,
    /// Conexiones del generador de carga
    #[arg(long, value_name = "N", default_value = "16", default_value_if("rapido", "true", "4"),
          value_parser = opciones::entre(1usize, 256))]
    conexiones: usize,
    /// Dónde escribir el CSV [por defecto, sin --rapido: resultados/carga.csv]
    #[arg(long = "csv", value_name = "RUTA")]
    csv_pedido: Option<PathBuf>,
    /// Deja fuera el servidor de io_uring
    #[arg(long)]
    sin_uring: bool,
    /// Uso interno (procesos hijos): qué servidor arrancar
    #[arg(long, value_name = "NOMBRE", hide = true, value_parser = servidor_de)]
    servidor: Option<Servidor>,
}

impl Opciones {
    /// Dónde escribir el CSV: el modo rápido no pisa los resultados de verdad.
    fn csv(&self) -> Option<PathBuf> {
        self.csv_pedido.clone().or_else(|| (!self.rapido).then(csv_por_defecto))
    }
}

fn servidor_de(nombre: &str) -> Result<Servidor, String> {
    Servidor::desde_nombre(nombre)
        .ok_or_else(|| format!("espera tokio_multihilo, tokio_por_nucleo o uring_por_nucleo, no «{nombre}»"))
}

/// En el proceso hijo: arranca el servidor, dice su puerto y atiende lo que
/// el padre le escriba por la entrada estándar: con «marca» contesta sus
/// cambios de contexto hasta ese momento; al cerrarse la entrada, termina
/// (y, como red de seguridad, a los diez minutos).
fn hijo(servidor: Servidor, hilos: usize) -> ! {
    let puerto = match servidor.arranca(hilos) {
        Ok(p) => p,
        Err(e) => {
            println!("ERROR {e}");
            std::process::exit(1);
        }
    };
    println!("PUERTO {puerto}");
    std::thread::spawn(|| {
        std::thread::sleep(Duration::from_secs(600));
        std::process::exit(3);
    });
    for linea in std::io::stdin().lock().lines() {
        match linea {
            Ok(l) if l.trim() == "marca" => {
                let (voluntarios, involuntarios) = cambios_de_contexto();
                println!("USO {voluntarios} {involuntarios}");
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    std::process::exit(0);
}

/// Un servidor en marcha en su proceso hijo, con su salida para leer.
struct Hijo {
    proceso: std::process::Child,
    salida: BufReader<std::process::ChildStdout>,
    puerto: u16,
}

impl Hijo {
    fn arranca(servidor: Servidor, hilos: usize) -> Result<Hijo, String> {
        let programa = std::env::current_exe().map_err(|e| format!("no sé dónde estoy: {e}"))?;
        let mut proceso = Command::new(programa)
            .args(["--servidor", servidor.nombre(), "--hilos", &hilos.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("no arranca el servidor: {e}"))?;
        let mut salida = BufReader::new(proceso.stdout.take().expect("stdout"));
        let mut linea = String::new();
        let _ = salida.read_line(&mut linea);
        match linea.trim().strip_prefix("PUERTO ").and_then(|p| p.parse::<u16>().ok()) {
            Some(puerto) => Ok(Hijo { proceso, salida, puerto }),
            None => {
                let mut h = Hijo { proceso, salida, puerto: 0 };
                h.termina();
                Err(format!("el servidor {} no arrancó: «{}»", servidor.etiqueta(), linea.trim()))
            }
        }
    }

    /// Los cambios de contexto del hijo hasta ahora (voluntarios, involuntarios).
    fn marca(&mut self) -> Result<(u64, u64), String> {
        let entrada = self.proceso.stdin.as_mut().ok_or("el hijo ya no tiene entrada")?;
        entrada.write_all(b"marca\n").map_err(|e| format!("no puedo hablar con el servidor: {e}"))?;
        entrada.flush().map_err(|e| format!("no puedo hablar con el servidor: {e}"))?;
        let mut linea = String::new();
        self.salida.read_line(&mut linea).map_err(|e| format!("el servidor no contesta: {e}"))?;
        let numeros: Vec<u64> =
            linea.trim().strip_prefix("USO ").unwrap_or("").split(' ').filter_map(|n| n.parse().ok()).collect();
        match numeros[..] {
            [v, i] => Ok((v, i)),
            _ => Err(format!("respuesta rara del servidor: «{}»", linea.trim())),
        }
    }

    fn termina(&mut self) {
        drop(self.proceso.stdin.take()); // el hijo ve el fin de su entrada y termina
        let _ = self.proceso.wait();
    }
}

/// Arranca un servidor en un proceso hijo, lo mide y lo termina.
fn mide(servidor: Servidor, o: &Opciones, ritmo: u64, repeticion: u32) -> Result<Fila, String> {
    let mut hijo = Hijo::arranca(servidor, o.hilos)?;
    let carga = Carga { ritmo: ritmo as f64, duracion: Duration::from_millis(o.ms), conexiones: o.conexiones };
    let resultado = genera(hijo.puerto, carga).map_err(|e| format!("el generador falló: {e}"));
    hijo.termina();
    let m = resultado?;
    Ok(Fila {
        repeticion,
        servidor,
        ritmo,
        enviadas: m.enviadas,
        recibidas: m.recibidas,
        rendimiento: m.rendimiento,
        p50_us: percentil(&m.latencias_us, 50.0).unwrap_or(0),
        p99_us: percentil(&m.latencias_us, 99.0).unwrap_or(0),
    })
}

// ANCHOR: cuenta
/// Como [`mide`], pero cuenta: las llamadas al sistema del servidor con
/// `perf stat` (si se puede) y sus cambios de contexto con `getrusage`,
/// entre una marca justo antes de la carga y otra justo después.
fn cuenta(servidor: Servidor, o: &Opciones, ritmo: u64) -> Result<(Recuento, u64), String> {
    let mut hijo = Hijo::arranca(servidor, o.hilos)?;
    let perf = empieza_perf(hijo.proceso.id()).ok();
    // `perf` tarda un poco en engancharse a los hilos del servidor.
    std::thread::sleep(Duration::from_millis(300));
    let antes = hijo.marca()?;
    let carga = Carga { ritmo: ritmo as f64, duracion: Duration::from_millis(o.ms), conexiones: o.conexiones };
    let medida = genera(hijo.puerto, carga).map_err(|e| format!("el generador falló: {e}"));
    let despues = hijo.marca();
    let llamadas = perf.map(acaba_perf);
    hijo.termina();
    let (medida, despues) = (medida?, despues?);
    let (llamadas, por_llamada) = match llamadas {
        Some(Ok((total, por))) => (Some(total), por),
        _ => (None, vec![None; LLAMADAS.len()]),
    };
    let recuento =
        Recuento { llamadas, por_llamada, voluntarios: despues.0 - antes.0, involuntarios: despues.1 - antes.1 };
    Ok((recuento, medida.recibidas))
}
// ANCHOR_END: cuenta

/// Por qué `perf` no cuenta aquí, en una línea (para decirlo una vez).
fn perf_disponible() -> Result<(), String> {
    let salida = Command::new("perf")
        .args(["stat", "-x", ",", "-e", "raw_syscalls:sys_enter", "--", "true"])
        .output()
        .map_err(|e| format!("no encuentro `perf` ({e})"))?;
    lee_perf(&String::from_utf8_lossy(&salida.stderr)).map(|_| ())
}

fn us(v: f64) -> String {
    if v >= 1_000_000.0 {
        format!("{} s", numero(v / 1e6, 2))
    } else if v >= 1_000.0 {
        format!("{} ms", numero(v / 1e3, 1))
    } else {
        format!("{} µs", numero(v, 0))
    }
}

/// «1 repetición», «5 repeticiones».
fn cuantas(n: u32, una: &str, varias: &str) -> String {
    format!("{n} {}", if n == 1 { una } else { varias })
}

fn main() {
    let o: Opciones = opciones::de_la_linea_de_ordenes();
    // Lo que calculan los hilos de la medida de cambios de núcleo.
    let migraciones_ms = if o.rapido { 30 } else { 1_000 };
    if let Some(servidor) = o.servidor {
        hijo(servidor, o.hilos);
    }
    let mut informe = String::new();
    macro_rules! di {
        ($($t:tt)*) => {{
            let l = format!($($t)*);
            println!("{l}");
            let _ = writeln!(informe, "{l}");
        }};
    }

    let nucleos = nucleos_permitidos().unwrap_or_default();
    di!("Un eco por TCP, por loopback, construido de tres maneras; cada servidor en su proceso");
    di!(
        "Núcleos permitidos: {} ({:?}); {} hilos por servidor; {} conexiones; {} ms por medida",
        nucleos.len(),
        nucleos,
        o.hilos,
        entero(o.conexiones as u64),
        entero(o.ms)
    );
    let mut servidores = vec![Servidor::TokioMultihilo, Servidor::TokioPorNucleo];
    // ANCHOR: detecta
    match io_uring_disponible() {
        Ok(()) if o.sin_uring => di!("io_uring: disponible, pero --sin-uring lo deja fuera: mido las otras dos"),
        Ok(()) => {
            di!("io_uring: disponible en esta máquina");
            servidores.push(Servidor::UringPorNucleo);
        }
        Err(e) => {
            di!("io_uring: no disponible aquí ({}): mido las otras dos", por_que_no_hay_io_uring(&e))
        }
    }
    // ANCHOR_END: detecta
    di!(
        "{} por servidor y carga, en orden alternado; cada celda: mediana [mínimo-máximo]",
        cuantas(o.repeticiones, "repetición", "repeticiones")
    );
    di!("");

    let mut filas = Vec::new();
    for rep in 0..o.repeticiones {
        for (k, &ritmo) in o.ritmos.iter().enumerate() {
            // En cada repetición y carga, el orden empieza por un servidor distinto.
            let n = servidores.len();
            for s in 0..n {
                let servidor = servidores[(s + rep as usize + k) % n];
                match mide(servidor, &o, ritmo, rep) {
                    Ok(f) => filas.push(f),
                    Err(e) => {
                        eprintln!("falló: {e}");
                        std::process::exit(1);
                    }
                }
            }
        }
        eprintln!("repetición {} de {} hecha", rep + 1, o.repeticiones);
    }

    di!("{:<32} {:>8} {:>9} {:>26} {:>26} {:>30}", "servidor", "ofrecida", "recibidas", "por segundo", "p50", "p99");
    let valores = |s: Servidor, r: u64, f: &dyn Fn(&Fila) -> f64| -> Option<[f64; 3]> {
        resumen(filas.iter().filter(|x| x.servidor == s && x.ritmo == r).map(f).collect())
    };
    for &ritmo in &o.ritmos {
        for &s in &servidores {
            let (Some(rend), Some(p50), Some(p99), Some(rec)) = (
                valores(s, ritmo, &|f| f.rendimiento),
                valores(s, ritmo, &|f| f.p50_us as f64),
                valores(s, ritmo, &|f| f.p99_us as f64),
                valores(s, ritmo, &|f| 100.0 * f.recibidas as f64 / f.enviadas.max(1) as f64),
            ) else {
                continue;
            };
            di!(
                "{:<32} {:>8} {:>7} % {:>26} {:>26} {:>30}",
                s.etiqueta(),
                entero(ritmo),
                numero(rec[0], 1),
                format!("{} [{}-{}]", numero(rend[0], 0), numero(rend[1], 0), numero(rend[2], 0)),
                format!("{} [{}-{}]", us(p50[0]), us(p50[1]), us(p50[2])),
                format!("{} [{}-{}]", us(p99[0]), us(p99[1]), us(p99[2]))
            );
        }
    }
    for (nombre, campo) in
        [("p50", &(|f: &Fila| f.p50_us as f64) as &dyn Fn(&Fila) -> f64), ("p99", &|f: &Fila| f.p99_us as f64)]
    {
        di!("");
        di!("{nombre} frente a Tokio multihilo (rangos que se solapan: no se distingue aquí):");
        for &ritmo in &o.ritmos {
            let Some(base) = valores(Servidor::TokioMultihilo, ritmo, campo) else { continue };
            for &s in servidores.iter().skip(1) {
                let Some(otro) = valores(s, ritmo, campo) else { continue };
                let veredicto = if o.repeticiones < 2 {
                    "una sola repetición: no se puede decir"
                } else if se_solapan(base, otro) {
                    "no se distingue aquí"
                } else if otro[0] < base[0] {
                    "menor, fuera del rango"
                } else {
                    "mayor, fuera del rango"
                };
                di!("  a {}/s, {}: {veredicto}", entero(ritmo), s.etiqueta());
            }
        }
    }

    // Recuentos por petición: dependen poco de lo cargada que esté la máquina.
    let ritmo_de_recuento = o.ritmos.first().copied().unwrap_or(10_000).min(20_000);
    di!("");
    di!(
        "Por petición, a {}/s durante {} ms: llamadas al sistema del servidor (perf stat) \
         y cambios de contexto (getrusage); mediana [mínimo-máximo] de {}",
        entero(ritmo_de_recuento),
        entero(o.ms),
        cuantas(o.repeticiones, "ejecución", "ejecuciones")
    );
    if let Err(e) = perf_disponible() {
        di!("  perf no cuenta llamadas al sistema aquí ({e}): solo cambios de contexto");
    }
    let mut recuentos: Vec<(Servidor, Recuento, u64)> = Vec::new();
    for rep in 0..o.repeticiones {
        let n = servidores.len();
        for s in 0..n {
            let servidor = servidores[(s + rep as usize) % n];
            match cuenta(servidor, &o, ritmo_de_recuento) {
                Ok((r, recibidas)) => recuentos.push((servidor, r, recibidas)),
                Err(e) => {
                    eprintln!("falló: {e}");
                    std::process::exit(1);
                }
            }
        }
    }
    let mut cabecera = format!("  {:<32} {:>24}", "servidor", "llamadas al sistema");
    for l in LLAMADAS {
        let _ = write!(cabecera, " {l:>14}");
    }
    let _ = write!(cabecera, " {:>24}", "cambios de contexto");
    di!("{cabecera}");
    for &s in &servidores {
        let de_este: Vec<&(Servidor, Recuento, u64)> = recuentos.iter().filter(|r| r.0 == s).collect();
        let por_peticion = |f: &dyn Fn(&Recuento) -> Option<u64>| -> Option<[f64; 3]> {
            let v: Option<Vec<f64>> =
                de_este.iter().map(|(_, r, recibidas)| f(r).map(|x| x as f64 / (*recibidas).max(1) as f64)).collect();
            v.and_then(resumen)
        };
        let celda = |r: Option<[f64; 3]>| match r {
            Some([m, a, b]) => format!("{} [{}-{}]", numero(m, 2), numero(a, 2), numero(b, 2)),
            None => "-".to_string(),
        };
        let mut linea = format!("  {:<32} {:>24}", s.etiqueta(), celda(por_peticion(&|r| r.llamadas)));
        for i in 0..LLAMADAS.len() {
            let m = por_peticion(&|r| r.por_llamada[i]).map_or("-".to_string(), |[m, _, _]| numero(m, 2));
            let _ = write!(linea, " {m:>14}");
        }
        let _ = write!(linea, " {:>24}", celda(por_peticion(&|r| Some(r.voluntarios + r.involuntarios))));
        di!("{linea}");
    }

    // ANCHOR: migra
    let veces = 2 * o.repeticiones + 1;
    di!("");
    di!(
        "Cambios de núcleo (se.nr_migrations) de {} hilos que calculan {} ms cada uno, sumados; {veces} ejecuciones \
         de cada caso, alternadas: mediana [mínimo-máximo] y cada ejecución",
        nucleos.len(),
        migraciones_ms
    );
    let mut libres = Vec::new();
    let mut fijados = Vec::new();
    let duracion = Duration::from_millis(migraciones_ms);
    for rep in 0..veces {
        for fijar in if rep % 2 == 0 { [false, true] } else { [true, false] } {
            let hilos: Vec<_> = (0..nucleos.len().max(1))
                .map(|i| {
                    let nucleo = fijar.then(|| nucleos.get(i).copied()).flatten();
                    std::thread::spawn(move || cuenta_migraciones(nucleo, duracion))
                })
                .collect();
            let total: Option<u64> = hilos.into_iter().map(|h| h.join().ok().flatten()).sum();
            if let Some(total) = total {
                if fijar { fijados.push(total as f64) } else { libres.push(total as f64) }
            }
        }
    }
    // ANCHOR_END: migra
    for (nombre, v) in [("libres", libres), ("fijados", fijados)] {
        let lista: Vec<String> = v.iter().map(|&x| numero(x, 0)).collect();
        match resumen(v) {
            Some([m, a, b]) => {
                di!("  {nombre:<8} {} [{}-{}]: {}", numero(m, 0), numero(a, 0), numero(b, 0), lista.join(" "))
            }
            None => di!("  {nombre:<8} el sistema no da la cuenta (/proc/thread-self/sched)"),
        }
    }

    if let Some(csv) = &o.csv() {
        if let Some(carpeta) = csv.parent() {
            let _ = std::fs::create_dir_all(carpeta);
        }
        let mut texto = format!("{CABECERA}\n");
        for f in &filas {
            texto.push_str(&f.a_csv());
            texto.push('\n');
        }
        let txt = csv.with_extension("txt");
        match std::fs::write(csv, texto).and_then(|_| std::fs::write(&txt, &informe)) {
            Ok(()) => println!("\nCSV escrito en {} (y la tabla en {})", csv.display(), txt.display()),
            Err(e) => {
                eprintln!("error: no pude escribir {}: {e}", csv.display());
                std::process::exit(1);
            }
        }
    }
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn opciones() {
        let a = |v: &[&str]| opciones::lee::<Opciones>(v.iter().copied());
        let o = a(&[]).unwrap();
        assert_eq!(
            (o.ritmos, o.ms, o.repeticiones, o.conexiones),
            (vec![10_000, 20_000, 40_000, 80_000], 1_000, 5, 16)
        );
        assert_eq!(o.csv_pedido, None);
        let r = a(&["--rapido", "--hilos", "2"]).unwrap();
        // Las mismas cargas que la medida completa, pero cortas: las filas del
        // libro (las de 40 000/s y 80 000/s) salen también en modo rápido.
        assert_eq!(
            (r.ritmos.clone(), r.ms, r.repeticiones, r.conexiones, r.hilos),
            (vec![10_000, 20_000, 40_000, 80_000], 50, 1, 4, 2)
        );
        assert_eq!(r.csv(), None);
        assert_eq!(a(&["--ritmos", "5000,20000"]).unwrap().ritmos, vec![5_000, 20_000]);
        assert_eq!(a(&["--servidor", "tokio_multihilo"]).unwrap().servidor, Some(Servidor::TokioMultihilo));
        assert!(a(&["--ritmos", "5000,50"]).unwrap_err().contains("--ritmos debe estar entre 100 y 500000"));
        assert!(a(&["--servidor", "otro"]).is_err());
        assert!(a(&["--hilo"]).unwrap_err().starts_with("opción desconocida «--hilo»"));
    }
}
