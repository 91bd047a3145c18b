//! Las trazas del Tokio de verdad: lo que graba `--bin grabador` y cómo se
//! convierte en una traza del reproductor del libro.
//!
//! El grabador (`src/bin/grabador.rs`, solo con `--cfg tokio_unstable`)
//! ejecuta una carga pequeña en un *runtime* multihilo con los ganchos de
//! Tokio 1.54 (`on_task_spawn`, `on_before_task_poll`, `on_after_task_poll`,
//! `on_task_terminate`, `on_thread_park` y `on_thread_unpark`) y anota cada
//! evento con su tarea, su trabajador (`tokio::runtime::worker_index()`), su
//! tiempo y una muestra de las métricas del *runtime*. Aquí está lo que no
//! depende de Tokio, y por eso se prueba con `cargo test` sin la bandera:
//!
//! - [`Grabacion`], [`Evento`] y [`Muestra`]: lo grabado, tal cual;
//! - [`Carga`]: las tres cargas, con sus parámetros y su orden de grabación;
//! - [`pasos`]: los pasos del reproductor y la frase de cada uno, deducidos
//!   de lo grabado (y nada más);
//! - [`archivo`]: los dos archivos de una ejecución: la traza que lee el
//!   reproductor ([`traza_json`]) y lo grabado tal cual ([`registro_json`],
//!   que se lee con [`leer`]); y [`leer_linea_de_tiempo`], lo que dibuja
//!   `grafica-tokio-*` con [`grafica`].

pub mod archivo;
pub mod grafica;
pub mod pasos;

use opciones::clap::{self, ValueEnum};

pub use archivo::{LineaDeTiempo, Sondeo, leer, leer_linea_de_tiempo, registro_json, traza_json};

/// Lo que se sabe de cada trabajador en un momento: la profundidad de su
/// cola local (leída en ese instante) y sus contadores, tal como los había
/// publicado entonces. Tokio publica los contadores de un trabajador en su
/// mantenimiento y al aparcarse; el grabador pide mantenimiento en cada
/// vuelta (`event_interval(1)`), así que van como mucho una vuelta por detrás.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Contadores {
    /// `worker_local_queue_depth`: tareas en su cola local (sin la ranura LIFO).
    pub cola: u64,
    /// `worker_steal_count`: tareas que ha robado.
    pub robadas: u64,
    /// `worker_steal_operations`: robos (cada uno se lleva una o más tareas).
    pub robos: u64,
    /// `worker_overflow_count`: veces que su cola local desbordó a la global.
    pub desbordes: u64,
    /// `worker_poll_count`: vueltas en las que sondeó (no cuenta lo que sale
    /// de la ranura LIFO en la misma vuelta).
    pub sondeos: u64,
    /// `worker_local_schedule_count`: tareas que programó en su propia cola o ranura.
    pub locales: u64,
}

/// Las métricas de todo el *runtime* leídas en un instante.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Muestra {
    /// `global_queue_depth`: tareas en la cola global.
    pub global: u64,
    /// Una entrada por trabajador.
    pub trabajadores: Vec<Contadores>,
}

/// Qué pasó.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Que {
    /// Se lanza una tarea (`on_task_spawn`). `padre`: la tarea que la
    /// lanzó, si se lanzó desde una; `lugar`: `archivo:línea` del `spawn`.
    Lanza { padre: Option<usize>, lugar: String },
    /// Empieza un sondeo (`on_before_task_poll`).
    Empieza,
    /// Acaba un sondeo (`on_after_task_poll`).
    Acaba,
    /// La tarea termina (`on_task_terminate`; llega dentro de su último sondeo).
    Termina,
    /// El trabajador se va a aparcar (`on_thread_park`).
    Duerme,
    /// El trabajador se despierta (`on_thread_unpark`).
    Despierta,
    /// El *runtime* ya se apagó: la última muestra, con todos los contadores publicados.
    Cierre,
}

impl Que {
    /// El nombre con el que se guarda.
    pub fn nombre(&self) -> &'static str {
        match self {
            Que::Lanza { .. } => "lanza",
            Que::Empieza => "empieza",
            Que::Acaba => "acaba",
            Que::Termina => "termina",
            Que::Duerme => "duerme",
            Que::Despierta => "despierta",
            Que::Cierre => "cierre",
        }
    }
}

/// Un evento grabado.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evento {
    /// Nanosegundos desde que empezó la grabación.
    pub t_ns: u64,
    pub que: Que,
    /// La tarea, numerada por orden de lanzamiento (la primera es la 0).
    pub tarea: Option<usize>,
    /// El trabajador donde ocurrió (`None`: fuera del *runtime*).
    pub trabajador: Option<usize>,
    /// Las métricas leídas justo en ese momento.
    pub muestra: Muestra,
}

/// Una ejecución grabada.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grabacion {
    pub carga: Carga,
    /// Hilos trabajadores del *runtime*.
    pub trabajadores: usize,
    /// Núcleos que veía el proceso (`available_parallelism`).
    pub nucleos: usize,
    /// La versión de Tokio compilada (la del `Cargo.lock`).
    pub tokio: String,
    /// La orden que grabó esta traza.
    pub orden: String,
    /// Cuántas ejecuciones hizo falta grabar hasta que una enseñó lo que la
    /// carga promete (ver [`Carga::promete`]).
    pub intentos: u32,
    /// Qué trabajadores dormían al empezar la grabación.
    pub dormidos_al_empezar: Vec<bool>,
    pub eventos: Vec<Evento>,
}

/// Las cargas que sabe grabar el grabador.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Carga {
    /// Una tarea lanzada desde fuera lanza ocho hijas; cada hija calcula, cede una vez, calcula y termina
    Reparto,
    /// Una tarea lanza 258 hijas en un solo sondeo: su cola local desborda
    Desborde,
    /// Una tarea lanza ocho hijas y se pone a calcular mucho rato sin ceder
    Robo,
}

/// Las hijas de [`Carga::Reparto`] y de [`Carga::Robo`].
pub const HIJAS: usize = 8;
/// Las hijas de [`Carga::Desborde`]: las mismas que la traza del ejecutor de enseñanza.
pub const HIJAS_DEL_DESBORDE: usize = 258;
/// Vueltas de `calcula` de cada mitad de una hija del reparto (unos 0,1 ms en *release*).
pub const VUELTAS_REPARTO: u32 = 50_000;
/// Vueltas de `calcula` de cada hija del robo (unos 0,2 ms).
pub const VUELTAS_HIJA_ROBO: u32 = 100_000;
/// Vueltas de la tarea larga del robo (unos 3 ms, sin ceder).
pub const VUELTAS_LARGA_ROBO: u32 = 1_500_000;
/// Vueltas de cada hija del desborde (unos microsegundos).
pub const VUELTAS_HIJA_DESBORDE: u32 = 1_000;

impl Carga {
    /// Todas, en el orden del libro.
    pub const TODAS: [Carga; 3] = [Carga::Reparto, Carga::Desborde, Carga::Robo];

    /// Su nombre en la línea de órdenes: `reparto`.
    pub fn nombre(self) -> &'static str {
        match self {
            Carga::Reparto => "reparto",
            Carga::Desborde => "desborde",
            Carga::Robo => "robo",
        }
    }

    /// El nombre de sus archivos: `tokio-reparto.json`.
    pub fn archivo(self) -> String {
        format!("tokio-{}.json", self.nombre())
    }

    /// Su traza del reproductor, relativa a la raíz del repositorio.
    pub fn traza(self) -> String {
        format!("book/trazas/{}", self.archivo())
    }

    /// Lo grabado, relativo a la raíz del repositorio.
    pub fn registro(self) -> String {
        format!("lessons/08-robo-de-trabajo/resultados/{}", self.archivo())
    }

    /// El tipo de paso que la traza guardada debe tener al menos una vez.
    pub fn promete(self) -> &'static str {
        match self {
            Carga::Reparto | Carga::Robo => "robo",
            Carga::Desborde => "desborde",
        }
    }

    /// El título de su reproductor.
    pub fn titulo(self) -> &'static str {
        match self {
            Carga::Reparto => "Tokio de verdad: una tarea lanza ocho, con 2 trabajadores",
            Carga::Desborde => "Tokio de verdad: la cola local se desborda",
            Carga::Robo => "Tokio de verdad: una tarea larga y un ladrón",
        }
    }

    /// La descripción de su reproductor.
    pub fn descripcion(self) -> &'static str {
        match self {
            Carga::Reparto => {
                "Una ejecución grabada del runtime multihilo de Tokio 1.54. Desde fuera se lanza una tarea que \
                 lanza ocho hijas; cada hija calcula un rato, cede el turno una vez, calcula otro rato y termina. \
                 Las tareas van numeradas por orden de lanzamiento."
            }
            Carga::Desborde => {
                "Una ejecución grabada del runtime multihilo de Tokio 1.54. Desde fuera se lanza una tarea que \
                 lanza 258 hijas en un solo sondeo; cada hija hace un cálculo corto y termina."
            }
            Carga::Robo => {
                "Una ejecución grabada del runtime multihilo de Tokio 1.54. Desde fuera se lanza una tarea que \
                 lanza ocho hijas y después calcula un buen rato sin ceder el turno; cada hija calcula un rato y \
                 termina."
            }
        }
    }
}

/// La orden que graba una carga con `trabajadores` hilos, tal como se
/// apunta en la traza y en el registro de mediciones del capítulo. Es la de
/// `cargo planificador --bin grabador -- --carga ...`, escrita entera.
pub fn orden_de_grabacion(carga: Carga, trabajadores: usize) -> String {
    let mut orden = format!(
        "cargo run --release -p leccion-08 --target-dir target/tokio-inestable \
         --config build.rustflags=[\"--cfg\",\"tokio_unstable\"] --bin grabador -- --carga {}",
        carga.nombre()
    );
    if trabajadores != TRABAJADORES {
        orden.push_str(&format!(" --trabajadores {trabajadores}"));
    }
    orden
}

/// Los trabajadores por defecto: tantos como núcleos tiene la máquina del curso.
pub const TRABAJADORES: usize = 2;
/// El tope de `--trabajadores` del grabador.
pub const MAX_TRABAJADORES: usize = 4;

/// La versión de `tokio` que fija un `Cargo.lock`.
pub fn version_en_el_lock(lock: &str) -> Option<String> {
    let mut lineas = lock.lines();
    while let Some(linea) = lineas.next() {
        if linea.trim() == "name = \"tokio\"" {
            let version = lineas.next()?.trim().strip_prefix("version = \"")?.strip_suffix('"')?;
            return Some(version.to_string());
        }
    }
    None
}

/// Opciones del grabador (`--bin grabador`).
#[derive(Debug, Clone, PartialEq, Eq, clap::Parser)]
#[command(
    name = "grabador",
    about = "Graba una ejecución del runtime multihilo de Tokio para el reproductor del libro (necesita --cfg tokio_unstable)."
)]
pub struct OpcionesDelGrabador {
    /// Qué carga ejecutar
    #[arg(long, value_enum, value_name = "CARGA")]
    pub carga: Carga,
    /// Hilos trabajadores (con más que núcleos, los hilos se turnan en los mismos núcleos)
    #[arg(long, value_name = "N", default_value_t = TRABAJADORES, value_parser = opciones::entre(2, MAX_TRABAJADORES))]
    pub trabajadores: usize,
    /// Cuántas ejecuciones grabar, como mucho, hasta que una enseñe lo que la carga promete
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = opciones::entre(1u32, 100))]
    pub intentos: u32,
    /// Escribe los dos archivos en esta carpeta [por defecto: la traza en book/trazas/ y lo grabado en lessons/08-robo-de-trabajo/resultados/]
    #[arg(long, value_name = "CARPETA")]
    pub salida: Option<std::path::PathBuf>,
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn la_orden_nombra_la_carga_y_la_bandera() {
        let o = orden_de_grabacion(Carga::Robo, 2);
        assert!(o.starts_with("cargo run --release -p leccion-08 "), "{o}");
        assert!(o.contains("tokio_unstable") && o.ends_with("--bin grabador -- --carga robo"), "{o}");
        assert!(orden_de_grabacion(Carga::Reparto, 4).ends_with("--carga reparto --trabajadores 4"));
    }

    #[test]
    fn la_version_sale_del_lock() {
        let lock = "[[package]]\nname = \"tokio-util\"\nversion = \"0.7.20\"\n\n[[package]]\nname = \"tokio\"\nversion = \"1.54.1\"\n";
        assert_eq!(version_en_el_lock(lock).as_deref(), Some("1.54.1"));
        assert_eq!(version_en_el_lock("nada"), None);
    }

    #[test]
    fn opciones_del_grabador() {
        let a = |v: &[&str]| opciones::lee::<OpcionesDelGrabador>(v.iter().copied());
        assert_eq!(a(&["--carga", "robo"]).unwrap().trabajadores, 2);
        assert_eq!(a(&["--carga", "desborde", "--trabajadores", "4"]).unwrap().carga, Carga::Desborde);
        assert!(a(&[]).is_err(), "la carga es obligatoria");
        assert!(a(&["--carga", "robo", "--trabajadores", "1"]).unwrap_err().contains("entre 2 y 4"));
        assert!(a(&["--carga", "otra"]).is_err());
    }
}
