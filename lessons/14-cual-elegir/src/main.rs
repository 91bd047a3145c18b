//! El mismo servicio clave-valor, la misma carga por encima de su capacidad,
//! cinco variantes de cuatro diseños. Cada ejecución corre en un proceso
//! aparte (este mismo programa con `--variante`), para medir el pico de
//! memoria de cada una. Cada variante se mide cinco veces, alternando el
//! orden, y la tabla da la mediana y el rango (mínimo-máximo).
//!
//! ```text
//! cargo run -p leccion-14 --release               # 1 s al doble de la capacidad, 5 veces
//! cargo run -p leccion-14 --release -- --carga 3  # al triple
//! cargo run -p leccion-14 --release -- --ocupacion 15 --solo uniforme --solo variable  # sin saturar (resultados/sin-saturar.csv)
//! cargo run -p leccion-14 -- --rapido             # 100 ms y una vez, lo que usan las pruebas
//! cargo run -p leccion-14 --bin grafica-comparacion           # dibuja el CSV en book/graficas/
//! ```

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use leccion_14::variantes::ejecuta;
use leccion_14::{CABECERA, Config, Escenario, Resultado, Variante, capacidad_por_nucleo, csv_por_defecto};
use medidas::{entero, mediana_y_extremos, numero};
use opciones::clap::{self, Parser};

/// Opciones de la lección.
#[derive(Debug, Clone, PartialEq, Parser)]
#[command(name = "leccion-14", about = "El mismo servicio, la misma carga, cinco variantes de cuatro diseños.")]
struct Opciones {
    /// 100 ms, una vez y sin CSV salvo que lo pidas (lo que usan las pruebas)
    #[arg(long)]
    rapido: bool,
    /// Cuánto dura cada ejecución, en milisegundos
    #[arg(long, value_name = "N", default_value = "1000", default_value_if("rapido", "true", "100"),
          value_parser = opciones::entre(10, MAX_MS))]
    ms: u64,
    /// Carga ofrecida, en veces la capacidad estimada
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = opciones::entre(1, MAX_CARGA))]
    carga: u64,
    /// Carga ofrecida, en porcentaje de la capacidad estimada (en lugar de --carga): por debajo de 100, el servicio no se satura
    #[arg(long, value_name = "PORCENTAJE", conflicts_with = "carga", value_parser = opciones::entre(1, MAX_CARGA * 100))]
    ocupacion: Option<u64>,
    /// Mide solo este reparto de la carga: uniforme, caliente o variable (se puede repetir) [por defecto: los tres]
    #[arg(long, value_name = "NOMBRE", value_parser = escenario_de)]
    solo: Vec<Escenario>,
    /// Hilos de cada variante [por defecto: uno por núcleo]
    #[arg(long, value_name = "N", default_value_t = nucleos().min(64), hide_default_value = true,
          value_parser = opciones::entre(1usize, 64))]
    hilos: usize,
    /// Ejecuciones de cada variante, en orden alternado
    #[arg(long, value_name = "N", default_value = "5", default_value_if("rapido", "true", "1"),
          value_parser = opciones::entre(1u32, 20))]
    repeticiones: u32,
    /// Dónde escribir el CSV [por defecto, sin --rapido: resultados/comparacion.csv, o resultados/sin-saturar.csv con --ocupacion por debajo de 100]
    #[arg(long = "csv", value_name = "RUTA")]
    csv_pedido: Option<PathBuf>,
    /// Uso interno (procesos hijos): peticiones por segundo
    #[arg(long, value_name = "N", hide = true, requires = "variante", value_parser = opciones::entre(1, MAX_RITMO as u64))]
    ritmo: Option<u64>,
    /// Uso interno (procesos hijos): qué variante correr
    #[arg(long, value_name = "NOMBRE", hide = true, requires = "ritmo", value_parser = variante_de)]
    variante: Option<Variante>,
    /// Uso interno (procesos hijos): con qué claves
    #[arg(long, value_name = "NOMBRE", hide = true, default_value = "uniforme", value_parser = escenario_de)]
    escenario: Escenario,
}

impl Opciones {
    /// Dónde escribir el CSV: el modo rápido no pisa los resultados de verdad.
    fn csv(&self) -> Option<PathBuf> {
        let por_defecto = || {
            let sin_saturar = self.ocupacion.is_some_and(|p| p < 100);
            if sin_saturar { csv_por_defecto().with_file_name("sin-saturar.csv") } else { csv_por_defecto() }
        };
        self.csv_pedido.clone().or_else(|| (!self.rapido).then(por_defecto))
    }

    /// La carga ofrecida, en porcentaje de la capacidad estimada.
    fn porcentaje(&self) -> u64 {
        self.ocupacion.unwrap_or(self.carga * 100)
    }

    /// Los repartos de la carga que se miden.
    fn escenarios(&self) -> Vec<Escenario> {
        if self.solo.is_empty() {
            return Escenario::TODOS.to_vec();
        }
        Escenario::TODOS.into_iter().filter(|e| self.solo.contains(e)).collect()
    }

    /// Solo en los procesos hijos: qué variante correr, con qué claves y a qué ritmo.
    fn hija(&self) -> Option<(Variante, Escenario, f64)> {
        Some((self.variante?, self.escenario, self.ritmo? as f64))
    }
}

const MAX_MS: u64 = 5_000;
const MAX_CARGA: u64 = 10;
/// El tope de peticiones por segundo: a 5 s, diez millones de peticiones.
const MAX_RITMO: f64 = 2_000_000.0;

fn nucleos() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

fn variante_de(nombre: &str) -> Result<Variante, String> {
    Variante::desde_nombre(nombre).ok_or_else(|| {
        format!("espera tokio_sin_limite, tokio_semaforo, tokio_semaforo_mitad, rayon o nucleo, no «{nombre}»")
    })
}

fn escenario_de(nombre: &str) -> Result<Escenario, String> {
    Escenario::desde_nombre(nombre).ok_or_else(|| format!("espera uniforme, caliente o variable, no «{nombre}»"))
}

fn main() {
    let o: Opciones = opciones::de_la_linea_de_ordenes();
    if let Some((variante, escenario, ritmo)) = o.hija() {
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
        1_000..1_000_000 => format!("{} ms", numero(us as f64 / 1e3, 1)),
        _ => format!("{} s", numero(us as f64 / 1e6, 2)),
    }
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
    let ritmo = (por_nucleo * o.hilos as f64 * o.porcentaje() as f64 / 100.0).clamp(1.0, MAX_RITMO).round();
    let config = Config::con(Escenario::Uniforme, o.hilos, ritmo, Duration::from_millis(o.ms));
    let proporcion = match o.ocupacion {
        Some(p) => format!("el {p} % de la capacidad"),
        None => format!("{}x la capacidad", o.carga),
    };
    println!("El mismo servicio clave-valor con cinco variantes, cada ejecución en su proceso");
    println!(
        "Capacidad medida: {} peticiones/s por núcleo. Carga: {}/s ({proporcion} de {} hilos) durante {} ms = {} peticiones",
        numero(por_nucleo, 0),
        numero(ritmo, 0),
        o.hilos,
        entero(o.ms),
        entero(config.peticiones() as u64)
    );
    println!(
        "Límites: Semaphore de {} permisos (Semaphore/2: {}); nucleo con {} shards, colas de {} y buzones de {}",
        entero(config.limite as u64),
        entero(config.limite_mitad as u64),
        o.hilos,
        entero(config.cola as u64),
        entero(config.buzon as u64)
    );
    // Las repeticiones, alternando el orden: en la repetición k, cada
    // escenario empieza por una variante distinta. Así una racha de ruido de
    // la máquina no cae siempre sobre la misma variante.
    let mut filas: Vec<Resultado> = Vec::new();
    let n = Variante::TODAS.len();
    let escenarios = o.escenarios();
    for k in 0..o.repeticiones {
        for &escenario in &escenarios {
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
    for &escenario in &escenarios {
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
            let col = |f: &dyn Fn(&Resultado) -> f64| {
                let v: Vec<f64> = de.iter().map(|r| f(r)).collect();
                mediana_y_extremos(&v).unwrap_or_default()
            };
            let rech = col(&|r| 100.0 * r.rechazadas as f64 / r.ofrecidas.max(1) as f64);
            let rend = col(&|r| r.rendimiento);
            let p50 = col(&|r| r.p50_us as f64);
            let p99 = col(&|r| r.p99_us as f64);
            let pico = col(&|r| r.pico_mib);
            let ultima = col(&|r| r.hasta_la_ultima_ms as f64 * 1000.0);
            let robos = if de.iter().all(|r| r.robos >= 0) {
                let (m, _, _) = col(&|r| r.robos as f64);
                numero(m, 0)
            } else {
                "-".to_string()
            };
            let t = |x: f64| tiempo(x as u64);
            println!(
                "{:<28} {:>9}% {:>27} {:>10} {:>25} {:>18} {:>8} {:>9}",
                v.etiqueta(),
                numero(rech.0, 0),
                format!("{} [{}-{}]", numero(rend.0, 0), numero(rend.1, 0), numero(rend.2, 0)),
                t(p50.0),
                format!("{} [{}-{}]", t(p99.0), t(p99.1), t(p99.2)),
                format!("{} [{}-{}]", numero(pico.0, 1), numero(pico.1, 1), numero(pico.2, 1)),
                t(ultima.0),
                robos
            );
        }
    }
    if let Some(ruta) = &o.csv() {
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
        let a = |v: &[&str]| opciones::lee::<Opciones>(v.iter().copied());
        let o = a(&["--rapido"]).unwrap();
        assert_eq!((o.ms, o.csv(), o.repeticiones), (100, None, 1));
        assert_eq!(a(&[]).unwrap().repeticiones, 5);
        assert_eq!(a(&["--repeticiones", "7"]).unwrap().repeticiones, 7);
        assert!(a(&["--repeticiones", "0"]).is_err());
        assert_eq!(a(&[]).unwrap().csv(), Some(csv_por_defecto()));
        assert_eq!(a(&["--rapido", "--csv", "x.csv"]).unwrap().csv(), Some(PathBuf::from("x.csv")));
        assert_eq!(
            a(&["--variante", "rayon", "--ritmo", "100"]).unwrap().hija(),
            Some((Variante::Rayon, Escenario::Uniforme, 100.0))
        );
        let o = a(&["--variante", "nucleo", "--escenario", "caliente", "--ritmo", "5"]).unwrap();
        assert_eq!(o.hija(), Some((Variante::Nucleo, Escenario::Caliente, 5.0)));
        assert!(a(&["--escenario", "tibio"]).is_err());
        assert!(a(&["--variante", "rayon"]).is_err());
        assert!(a(&["--variante", "otra", "--ritmo", "1"]).is_err());
        assert!(a(&["--carga", "0"]).is_err());
        let o = a(&["--ocupacion", "30", "--solo", "variable"]).unwrap();
        assert_eq!((o.porcentaje(), o.escenarios()), (30, vec![Escenario::Variable]));
        assert_eq!(
            o.csv(),
            Some(csv_por_defecto().with_file_name("sin-saturar.csv")),
            "sin saturar no pisa la comparación"
        );
        assert_eq!(a(&["--ocupacion", "300"]).unwrap().csv(), Some(csv_por_defecto()));
        assert_eq!(a(&["--rapido", "--ocupacion", "30"]).unwrap().csv(), None);
        assert_eq!((a(&["--carga", "3"]).unwrap().porcentaje(), a(&[]).unwrap().escenarios().len()), (300, 3));
        assert!(a(&["--ocupacion", "0"]).is_err());
        assert!(a(&["--ocupacion", "30", "--carga", "2"]).is_err(), "las dos a la vez no tienen sentido");
        assert!(a(&["--solo", "tibio"]).is_err());
        let o = a(&["--solo", "variable", "--solo", "uniforme"]).unwrap();
        assert_eq!(o.escenarios(), [Escenario::Uniforme, Escenario::Variable], "en el orden de siempre");
        assert!(a(&["--hilo"]).unwrap_err().contains("desconocida"));
    }

    #[test]
    fn tiempos_legibles() {
        assert_eq!(tiempo(250), "250 µs");
        assert_eq!(tiempo(2_500), "2,5 ms");
        assert_eq!(tiempo(2_500_000), "2,50 s");
    }
}
