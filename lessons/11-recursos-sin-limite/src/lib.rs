//! Lección 11: recursos sin límite.
//!
//! `cargo run -p leccion-11 --release` somete un servicio simulado a un pico
//! de tráfico de tres maneras y mide su memoria residente a lo largo del
//! tiempo. Aquí está lo que el experimento necesita: el tráfico (cuántas
//! peticiones han llegado en cada instante), los parámetros, las opciones y
//! el formato del CSV que luego dibuja `cargo run -p leccion-11 --bin
//! grafica-memoria`. La memoria residente y los percentiles son los de
//! `medidas`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use opciones::clap::{self, Parser};

/// Un mebibyte, en bytes.
pub const MIB: u64 = 1024 * 1024;

/// Las tres formas de recibir el pico que compara la lección.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Escenario {
    /// Una tarea por petición, sin ningún límite.
    SinLimite,
    /// Una tarea por petición, pero solo con un permiso de un `Semaphore`.
    Semaforo,
    /// Una cola acotada: se reserva un hueco (`try_reserve`) antes de leer la
    /// petición, y lo que no cabe se rechaza sin leerlo.
    ColaAcotada,
}

impl Escenario {
    /// Los tres, en el orden en que se miden.
    pub const TODOS: [Escenario; 3] = [Escenario::SinLimite, Escenario::Semaforo, Escenario::ColaAcotada];

    /// El nombre de la columna `escenario` del CSV.
    pub fn nombre(self) -> &'static str {
        match self {
            Escenario::SinLimite => "sin_limite",
            Escenario::Semaforo => "semaforo",
            Escenario::ColaAcotada => "cola_acotada",
        }
    }

    /// La etiqueta que se imprime.
    pub fn etiqueta(self) -> &'static str {
        match self {
            Escenario::SinLimite => "(a) spawn sin límite",
            Escenario::Semaforo => "(b) spawn con semáforo",
            Escenario::ColaAcotada => "(c) cola con try_reserve",
        }
    }

    /// El escenario cuyo [`nombre`](Escenario::nombre) es `nombre`.
    pub fn desde_nombre(nombre: &str) -> Option<Escenario> {
        Escenario::TODOS.into_iter().find(|e| e.nombre() == nombre)
    }
}

/// Todo lo que define el experimento. Los valores están en
/// [`Parametros::normales`] y [`Parametros::rapidos`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parametros {
    /// Cuánto dura cada escenario como mucho.
    pub duracion: Duration,
    /// Cuándo empieza el pico de tráfico.
    pub pico_desde: Duration,
    /// Cuándo termina.
    pub pico_hasta: Duration,
    /// Peticiones por milisegundo fuera del pico.
    pub por_ms_normal: u64,
    /// Peticiones por milisegundo durante el pico.
    pub por_ms_pico: u64,
    /// Bytes del cuerpo de cada petición (se guardan hasta atenderla).
    pub cuerpo: usize,
    /// Conexiones a la «base de datos»: cuántas peticiones se atienden a la vez.
    pub conexiones: usize,
    /// Lo que tarda cada petición con su conexión.
    pub servicio: Duration,
    /// Permisos del semáforo del escenario (b).
    pub limite: usize,
    /// Capacidad de la cola del escenario (c).
    pub cola: usize,
    /// Tareas que vacían la cola en el escenario (c).
    pub trabajadores: usize,
    /// El escenario se detiene si la memoria residente pasa de aquí (bytes).
    pub tope_rss: u64,
    /// Cada cuánto se mide la memoria.
    pub muestreo: Duration,
    /// Cada cuántos milisegundos se imprime una fila de la evolución.
    pub imprimir_cada: u64,
}

impl Parametros {
    /// Los de `cargo run -p leccion-11 --release`.
    pub fn normales() -> Parametros {
        Parametros {
            duracion: Duration::from_millis(4_000),
            pico_desde: Duration::from_millis(500),
            pico_hasta: Duration::from_millis(2_500),
            por_ms_normal: 1,
            por_ms_pico: 20,
            cuerpo: 16 * 1024,
            conexiones: 32,
            servicio: Duration::from_millis(10),
            limite: 64,
            cola: 128,
            trabajadores: 32,
            tope_rss: 256 * MIB,
            muestreo: Duration::from_millis(50),
            imprimir_cada: 250,
        }
    }

    /// Los de `--rapido`: lo mismo, más corto y con un tope de memoria menor.
    pub fn rapidos() -> Parametros {
        Parametros {
            duracion: Duration::from_millis(600),
            pico_desde: Duration::from_millis(100),
            pico_hasta: Duration::from_millis(400),
            tope_rss: 48 * MIB,
            muestreo: Duration::from_millis(20),
            imprimir_cada: 100,
            ..Parametros::normales()
        }
    }

    /// Peticiones que llegan en el milisegundo `ms`.
    pub fn por_ms(&self, ms: u64) -> u64 {
        let (desde, hasta) = (self.pico_desde.as_millis() as u64, self.pico_hasta.as_millis() as u64);
        if (desde..hasta).contains(&ms) { self.por_ms_pico } else { self.por_ms_normal }
    }

    /// Cuántas peticiones han llegado hasta el instante `t`, contado desde el
    /// inicio: las del milisegundo 0, las del 1... y las del milisegundo en
    /// curso.
    pub fn llegadas_hasta(&self, t: Duration) -> u64 {
        let ms = t.as_millis() as u64;
        let (desde, hasta) = (self.pico_desde.as_millis() as u64, self.pico_hasta.as_millis() as u64);
        let tramo = |a: u64, b: u64| (ms + 1).clamp(a, b) - a;
        tramo(0, desde) * self.por_ms_normal
            + tramo(desde, hasta) * self.por_ms_pico
            + tramo(hasta, u64::MAX) * self.por_ms_normal
    }

    /// El instante en que llega la petición número `i` (la primera es la 0).
    pub fn llegada_de(&self, i: u64) -> Duration {
        let (desde, hasta) = (self.pico_desde.as_millis() as u64, self.pico_hasta.as_millis() as u64);
        let antes = desde * self.por_ms_normal;
        let durante = (hasta - desde) * self.por_ms_pico;
        let ms = if i < antes {
            i / self.por_ms_normal
        } else if i < antes + durante {
            desde + (i - antes) / self.por_ms_pico
        } else {
            hasta + (i - antes - durante) / self.por_ms_normal
        };
        Duration::from_millis(ms)
    }

    /// Cuántas peticiones por segundo puede atender el servicio.
    pub fn capacidad_por_segundo(&self) -> u64 {
        (self.conexiones as u64 * 1_000_000) / self.servicio.as_micros() as u64
    }
}

/// Opciones de la lección, leídas de la línea de órdenes.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(
    name = "leccion-11",
    about = "Un pico de tráfico de tres maneras: la memoria residente a lo largo del tiempo."
)]
pub struct Opciones {
    /// Parámetros pequeños (lo que usan las pruebas)
    #[arg(long)]
    pub rapido: bool,
    /// Dónde escribir el CSV [por defecto, sin --rapido: resultados/memoria.csv]
    #[arg(long, value_name = "RUTA")]
    pub csv: Option<PathBuf>,
    /// Uso interno: el programa se relanza a sí mismo una vez por escenario,
    /// para que cada uno mida su propia memoria
    #[arg(long, value_name = "NOMBRE", hide = true, value_parser = escenario_de)]
    pub escenario: Option<Escenario>,
}

/// El escenario que nombra `--escenario`.
fn escenario_de(nombre: &str) -> Result<Escenario, String> {
    Escenario::desde_nombre(nombre).ok_or_else(|| format!("espera sin_limite, semaforo o cola_acotada, no «{nombre}»"))
}

/// La primera línea del CSV.
pub const CABECERA_CSV: &str = "escenario,ms,rss_mib,aceptadas,rechazadas";

/// Una fila del CSV: una muestra de un escenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Fila {
    pub escenario: String,
    pub ms: u64,
    pub rss_mib: f64,
    pub aceptadas: u64,
    pub rechazadas: u64,
}

impl Fila {
    /// La fila en formato CSV, sin salto de línea.
    pub fn a_csv(&self) -> String {
        format!("{},{},{:.1},{},{}", self.escenario, self.ms, self.rss_mib, self.aceptadas, self.rechazadas)
    }
}

/// Lee el CSV que escribe la lección.
pub fn lee_csv(texto: &str) -> Result<Vec<Fila>, String> {
    let mut lineas = texto.lines().enumerate();
    match lineas.next() {
        Some((_, cabecera)) if cabecera.trim() == CABECERA_CSV => {}
        _ => return Err(format!("la primera línea debe ser «{CABECERA_CSV}»")),
    }
    let mut filas = Vec::new();
    for (n, linea) in lineas.filter(|(_, l)| !l.trim().is_empty()) {
        let error = || format!("línea {}: «{linea}» no es una fila válida", n + 1);
        let campos: Vec<&str> = linea.trim().split(',').collect();
        let [escenario, ms, rss, aceptadas, rechazadas] = campos[..] else {
            return Err(error());
        };
        filas.push(Fila {
            escenario: escenario.to_string(),
            ms: ms.parse().map_err(|_| error())?,
            rss_mib: rss.parse().map_err(|_| error())?,
            aceptadas: aceptadas.parse().map_err(|_| error())?,
            rechazadas: rechazadas.parse().map_err(|_| error())?,
        });
    }
    Ok(filas)
}

/// Donde la lección escribe su CSV si no le dices otra cosa.
pub fn csv_por_defecto() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("resultados").join("memoria.csv")
}

/// Donde `grafica-memoria` escribe el SVG que muestra el libro.
pub fn svg_por_defecto() -> PathBuf {
    graficas::svg_del_libro(env!("CARGO_MANIFEST_DIR"), "memoria.svg")
}

/// El capítulo del libro: cada bloque de Rust se compila como prueba de
/// documentación de este crate, que ya tiene Tokio entre sus dependencias.
#[cfg(doctest)]
#[doc = include_str!("../../../book/11-recursos-sin-limite.md")]
pub struct CapituloDelLibro;

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn el_trafico_cuadra() {
        let p = Parametros::normales();
        assert_eq!(p.llegadas_hasta(Duration::ZERO), 1);
        assert_eq!(p.llegadas_hasta(Duration::from_millis(499)), 500);
        assert_eq!(p.llegadas_hasta(Duration::from_millis(500)), 520);
        assert_eq!(p.llegadas_hasta(Duration::from_millis(2_499)), 500 + 2_000 * 20);
        assert_eq!(p.llegadas_hasta(Duration::from_millis(2_500)), 500 + 2_000 * 20 + 1);
        // Cada petición llega en el milisegundo que dice `llegadas_hasta`.
        for i in [0, 499, 500, 519, 520, 40_499, 40_500, 40_501] {
            let t = p.llegada_de(i);
            assert!(p.llegadas_hasta(t) > i, "la petición {i} aún no había llegado a los {t:?}");
            if let Some(antes) = t.checked_sub(Duration::from_millis(1)) {
                assert!(p.llegadas_hasta(antes) <= i, "la petición {i} llegó antes de {t:?}");
            }
        }
        assert_eq!(p.capacidad_por_segundo(), 3_200);
    }

    #[test]
    fn opciones() {
        let a = |v: &[&str]| opciones::lee::<Opciones>(v.iter().copied());
        assert!(!a(&[]).unwrap().rapido);
        assert!(a(&["--rapido"]).unwrap().rapido);
        assert_eq!(a(&["--csv", "x.csv"]).unwrap().csv, Some(PathBuf::from("x.csv")));
        assert_eq!(a(&["--escenario", "semaforo"]).unwrap().escenario, Some(Escenario::Semaforo));
        assert!(a(&["--escenario", "otro"]).is_err());
        assert!(a(&["--csv"]).is_err());
        assert!(a(&["--hilos"]).unwrap_err().contains("desconocida"));
    }

    #[test]
    fn el_csv_va_y_vuelve() {
        let fila = Fila { escenario: "semaforo".into(), ms: 50, rss_mib: 3.25, aceptadas: 7, rechazadas: 0 };
        let texto = format!("{CABECERA_CSV}\n{}\n", fila.a_csv());
        let leidas = lee_csv(&texto).unwrap();
        assert_eq!(leidas.len(), 1);
        assert_eq!(leidas[0].ms, 50);
        assert_eq!(leidas[0].aceptadas, 7);
        assert!(lee_csv("a,b\n").is_err());
        assert!(lee_csv(&format!("{CABECERA_CSV}\nx,1,2\n")).is_err());
    }
}
