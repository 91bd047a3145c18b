//! Lección 16: ver lo que hacen las tareas.
//!
//! `cargo run -p leccion-16 --release` enseña cuatro maneras de mirar dentro
//! de un servicio en marcha: los tramos de `tracing` con un suscriptor
//! escrito aquí mismo, las métricas estables del *runtime* muestreadas
//! mientras una petición bloquea su trabajador, lo que cuesta instrumentar
//! (sin `tracing`, con un suscriptor nulo, con uno de verdad) y, con
//! `cargo observar`, la consola de Tokio y el volcado de tareas.

use std::fmt::{Debug, Write as _};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use opciones::clap::{self, Parser};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id};
use tracing::{Event, Subscriber};
use tracing_subscriber::layer::{Context, Layer};
use tracing_subscriber::registry::LookupSpan;

// ANCHOR: cronista
/// Un suscriptor mínimo, escrito como capa (*layer*) sobre el `Registry` de
/// `tracing-subscriber`: apunta cada evento con la cadena de tramos en la que
/// ocurrió, del más externo al más interno.
#[derive(Clone, Default)]
pub struct Cronista {
    pub lineas: Arc<Mutex<Vec<String>>>,
}

/// Lo que el cronista guarda en cada tramo: su nombre y sus campos, ya escritos.
struct Rotulo(String);

/// Escribe los campos de un tramo o de un evento como `nombre=valor`.
struct Campos<'a>(&'a mut String);

impl Visit for Campos<'_> {
    fn record_debug(&mut self, campo: &Field, valor: &dyn Debug) {
        if campo.name() == "message" {
            let _ = write!(self.0, " {valor:?}");
        } else {
            let _ = write!(self.0, " {}={valor:?}", campo.name());
        }
    }
}

/// Con `--cfg tokio_unstable` y su característica `tracing`, Tokio emite tramos
/// y eventos de sus propias tareas; el cronista solo quiere los del servicio.
fn es_de_tokio(metadatos: &tracing::Metadata<'_>) -> bool {
    metadatos.target().starts_with("tokio") || metadatos.target().starts_with("runtime")
}

impl<S> Layer<S> for Cronista
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, atributos: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        if es_de_tokio(atributos.metadata()) {
            return;
        }
        let mut rotulo = atributos.metadata().name().to_string();
        let mut campos = String::new();
        atributos.record(&mut Campos(&mut campos));
        if !campos.is_empty() {
            let _ = write!(rotulo, "{{{}}}", campos.trim_start());
        }
        if let Some(tramo) = ctx.span(id) {
            tramo.extensions_mut().insert(Rotulo(rotulo));
        }
    }

    fn on_event(&self, evento: &Event<'_>, ctx: Context<'_, S>) {
        if es_de_tokio(evento.metadata()) {
            return;
        }
        let mut linea = String::new();
        if let Some(ambito) = ctx.event_scope(evento) {
            for tramo in ambito.from_root() {
                if let Some(rotulo) = tramo.extensions().get::<Rotulo>() {
                    let _ = write!(linea, "{} > ", rotulo.0);
                }
            }
        }
        evento.record(&mut Campos(&mut linea));
        self.lineas.lock().unwrap().push(linea.replace(">  ", "> "));
    }
}
// ANCHOR_END: cronista

// ANCHOR: servicio
/// Una petición del servicio de la lección: autentica, consulta en otra
/// tarea y responde. Cada paso tiene su tramo; el de la consulta viaja con
/// la tarea gracias a `.instrument`.
#[tracing::instrument(skip(retraso))]
pub async fn atiende(id: u64, retraso: Duration) -> u64 {
    tracing::info!("empieza");
    let usuario = autentica(id).await;
    let consulta = tokio::spawn(tracing::Instrument::in_current_span(consulta(usuario, retraso)));
    let filas = consulta.await.expect("la consulta no entra en pánico");
    tracing::info!(filas, "responde");
    filas
}

#[tracing::instrument]
async fn autentica(id: u64) -> u64 {
    tokio::task::yield_now().await;
    id * 10
}

#[tracing::instrument(skip(retraso))]
async fn consulta(usuario: u64, retraso: Duration) -> u64 {
    tokio::time::sleep(retraso).await;
    tracing::info!("la base de datos contesta");
    usuario + 1
}
// ANCHOR_END: servicio

// ANCHOR: atascada
/// La tarea atascada del servicio: repone el inventario cada vez que alguien
/// avisa, pero nadie avisa nunca.
pub async fn espera_al_inventario(aviso: Arc<tokio::sync::Notify>) {
    loop {
        espera_aviso(&aviso).await;
        println!("no sale nunca: nadie avisa");
    }
}

async fn espera_aviso(aviso: &tokio::sync::Notify) {
    aviso.notified().await;
}

/// Una petición que necesita una conexión de un grupo agotado: espera su turno.
pub async fn pide_conexion(id: u64, conexiones: Arc<tokio::sync::Semaphore>) -> u64 {
    let _conexion = conexiones.acquire().await.expect("el grupo no se cierra");
    id
}
// ANCHOR_END: atascada

// ANCHOR: muestra
/// Una muestra de las métricas estables del *runtime* (Tokio 1.54).
#[derive(Debug, Clone, PartialEq)]
pub struct Muestra {
    /// Cuándo se tomó, desde que empezó el muestreo.
    pub instante: Duration,
    /// Tareas vivas en el *runtime*.
    pub tareas_vivas: usize,
    /// Tareas esperando en la cola global.
    pub cola_global: usize,
    /// Por trabajador: tiempo ocupado acumulado.
    pub ocupado: Vec<Duration>,
    /// Por trabajador: veces que se aparcó o se despertó (impar = aparcado).
    pub aparca: Vec<u64>,
}

/// Toma una muestra. Los contadores por trabajador se publican cuando el
/// trabajador se aparca o hace mantenimiento: pueden ir con retraso.
pub fn muestrea(metricas: &tokio::runtime::RuntimeMetrics, instante: Duration) -> Muestra {
    let n = metricas.num_workers();
    Muestra {
        instante,
        tareas_vivas: metricas.num_alive_tasks(),
        cola_global: metricas.global_queue_depth(),
        ocupado: (0..n).map(|w| metricas.worker_total_busy_duration(w)).collect(),
        aparca: (0..n).map(|w| metricas.worker_park_unpark_count(w)).collect(),
    }
}
// ANCHOR_END: muestra

// ANCHOR: atascado
/// El tramo más largo en el que un trabajador estuvo atascado según las
/// métricas estables: despierto (contador de aparcar y despertar par), sin
/// aparcarse (el contador no cambia) **y** sin publicar tiempo ocupado (no
/// sube). Lo segundo separa un trabajador atascado de uno saturado y sano,
/// que tampoco se aparca nunca pero publica su tiempo ocupado en cada vuelta
/// de mantenimiento. Devuelve (trabajador, desde, hasta).
pub fn tramo_mas_quieto(muestras: &[Muestra]) -> Option<(usize, Duration, Duration)> {
    let n = muestras.first()?.aparca.len();
    let mut mejor: Option<(usize, Duration, Duration)> = None;
    for w in 0..n {
        let mut desde = 0;
        for i in 1..muestras.len() {
            let (a, b) = (&muestras[desde], &muestras[i]);
            if b.aparca[w] != a.aparca[w] || b.ocupado[w] != a.ocupado[w] {
                desde = i; // se movió: el tramo quieto empieza otra vez aquí
                continue;
            }
            if b.aparca[w] % 2 == 1 {
                continue; // aparcado: quieto, pero porque no tiene trabajo
            }
            let largo = b.instante - a.instante;
            if mejor.is_none_or(|(_, x, y)| largo > y - x) {
                mejor = Some((w, a.instante, b.instante));
            }
        }
    }
    mejor
}
// ANCHOR_END: atascado

/// La regla incompleta, solo con el contador: el tramo más largo con el
/// contador par y quieto, suba o no el tiempo ocupado. Señala también a un
/// trabajador saturado y sano; la lección la enseña para compararla.
pub fn tramo_con_solo_el_contador(muestras: &[Muestra]) -> Option<(usize, Duration, Duration)> {
    let sin_ocupado: Vec<Muestra> =
        muestras.iter().map(|m| Muestra { ocupado: vec![Duration::ZERO; m.ocupado.len()], ..m.clone() }).collect();
    tramo_mas_quieto(&sin_ocupado)
}

/// El cuartil inferior, la mediana y el cuartil superior de `xs` (por
/// interpolación lineal entre las dos medidas más cercanas); `None` si no hay.
pub fn cuartiles(xs: &[f64]) -> Option<(f64, f64, f64)> {
    if xs.is_empty() {
        return None;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let q = |p: f64| {
        let pos = p * (v.len() - 1) as f64;
        let (i, f) = (pos.floor() as usize, pos.fract());
        if i + 1 < v.len() { v[i] + (v[i + 1] - v[i]) * f } else { v[i] }
    };
    Some((q(0.25), q(0.5), q(0.75)))
}

// ANCHOR: coste
/// La petición de la medida de coste, sin instrumentar: `sondeos` veces
/// calcula un poco y cede el control (cada vuelta es un sondeo).
pub async fn peticion_sin(id: u64, sondeos: u32) -> u64 {
    let mut total = id;
    for i in 0..sondeos {
        total = std::hint::black_box(total.wrapping_mul(31).wrapping_add(i as u64));
        tokio::task::yield_now().await;
    }
    total
}

/// La misma petición con su tramo (`#[instrument]`) y un evento al final.
#[tracing::instrument(skip(sondeos))]
pub async fn peticion_con(id: u64, sondeos: u32) -> u64 {
    let mut total = id;
    for i in 0..sondeos {
        total = std::hint::black_box(total.wrapping_mul(31).wrapping_add(i as u64));
        tokio::task::yield_now().await;
    }
    tracing::info!(total, "respondida");
    total
}
// ANCHOR_END: coste

/// Opciones de la lección, leídas de la línea de órdenes.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(name = "leccion-16", about = "Observar un runtime: tramos de tracing, métricas, su coste y tokio-console.")]
pub struct Opciones {
    /// Todo más corto (lo que usan las pruebas)
    #[arg(long)]
    pub rapido: bool,
    /// Segundos que el servicio queda en marcha para tokio-console (como mucho 300; 0: no espera)
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = segundos_de_consola)]
    pub consola: u64,
}

/// Cada petición de la medida de coste cede 10 veces: 11 sondeos.
pub const SONDEOS: u32 = 10;

/// Los segundos de `--consola`, como mucho 300.
fn segundos_de_consola(texto: &str) -> Result<u64, String> {
    texto.parse::<u64>().map(|n| n.min(300)).map_err(|_| format!("espera segundos, no «{texto}»"))
}

impl Opciones {
    /// Cuánto bloquea su trabajador la petición lenta de la segunda parte.
    pub fn bloqueo(&self) -> Duration {
        Duration::from_millis(if self.rapido { 100 } else { 300 })
    }

    /// Cada cuánto se muestrean las métricas.
    pub fn paso(&self) -> Duration {
        Duration::from_millis(if self.rapido { 20 } else { 25 })
    }

    /// Peticiones por ronda en la medida de coste.
    pub fn peticiones(&self) -> u32 {
        if self.rapido { 500 } else { 20_000 }
    }

    /// Rondas (intercaladas) por variante.
    pub fn rondas(&self) -> usize {
        if self.rapido { 5 } else { 21 }
    }
}

/// El capítulo del libro: cada bloque de Rust se compila como prueba de
/// documentación de este crate, que ya tiene Tokio y `tracing`.
#[cfg(doctest)]
#[doc = include_str!("../../../book/16-observar.md")]
pub struct CapituloDelLibro;

#[cfg(test)]
mod pruebas {
    use super::*;
    use tracing_subscriber::layer::SubscriberExt;

    #[test]
    fn opciones() {
        let a = |v: &[&str]| opciones::lee::<Opciones>(v.iter().copied());
        assert_eq!(a(&[]).unwrap().rondas(), 21);
        assert!(a(&["--rapido"]).unwrap().rapido);
        assert_eq!(a(&["--consola", "9999"]).unwrap().consola, 300);
        assert!(a(&["--lento"]).unwrap_err().contains("desconocida"));
    }

    #[test]
    fn el_cronista_sigue_la_peticion_hasta_la_otra_tarea() {
        let cronista = Cronista::default();
        let suscriptor = tracing_subscriber::registry().with(cronista.clone());
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().start_paused(true).build().unwrap();
        tracing::subscriber::with_default(suscriptor, || {
            rt.block_on(atiende(7, Duration::from_millis(5)));
        });
        let lineas = cronista.lineas.lock().unwrap().clone();
        assert_eq!(
            lineas,
            [
                "atiende{id=7} > empieza",
                "atiende{id=7} > consulta{usuario=70} > la base de datos contesta",
                "atiende{id=7} > responde filas=71",
            ]
        );
    }

    fn muestra(t: u64, aparca: [u64; 2], ocupado_ms: [u64; 2]) -> Muestra {
        Muestra {
            instante: Duration::from_millis(t),
            tareas_vivas: 0,
            cola_global: 0,
            ocupado: ocupado_ms.iter().map(|&o| Duration::from_millis(o)).collect(),
            aparca: aparca.to_vec(),
        }
    }

    #[test]
    fn el_tramo_mas_quieto() {
        let m = |t, a| muestra(t, a, [0, 0]);
        // El 0 duerme aparcado (impar); el 1 queda despierto y quieto de 20 a 80.
        let muestras = [m(0, [1, 2]), m(20, [1, 4]), m(50, [1, 4]), m(80, [1, 4]), m(100, [1, 6])];
        assert_eq!(tramo_mas_quieto(&muestras), Some((1, Duration::from_millis(20), Duration::from_millis(80))));
    }

    #[test]
    fn un_trabajador_saturado_no_esta_atascado() {
        // Los dos despiertos y sin aparcarse nunca (el contador, par y quieto),
        // pero su tiempo ocupado sube en cada muestra: están trabajando.
        let muestras = [
            muestra(0, [2, 2], [0, 0]),
            muestra(25, [2, 2], [24, 23]),
            muestra(50, [2, 2], [48, 47]),
            muestra(75, [2, 2], [73, 71]),
        ];
        assert_eq!(tramo_mas_quieto(&muestras), None);
        // La regla incompleta, solo con el contador, los señala a los dos.
        assert!(tramo_con_solo_el_contador(&muestras).is_some());
        // Y si el 1 deja de publicar tiempo ocupado, ese sí está atascado.
        let muestras = [
            muestra(0, [2, 2], [0, 0]),
            muestra(25, [2, 2], [24, 23]),
            muestra(50, [2, 2], [48, 23]),
            muestra(75, [2, 2], [73, 23]),
        ];
        assert_eq!(tramo_mas_quieto(&muestras), Some((1, Duration::from_millis(25), Duration::from_millis(75))));
    }

    #[test]
    fn cuartiles_por_interpolacion() {
        assert_eq!(cuartiles(&[4.0, 1.0, 3.0, 2.0, 5.0]), Some((2.0, 3.0, 4.0)));
        assert_eq!(cuartiles(&[1.0, 2.0]), Some((1.25, 1.5, 1.75)));
        assert_eq!(cuartiles(&[]), None);
    }
}
