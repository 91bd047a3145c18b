//! El lenguaje async hoy: lo que cuesta cada forma de llamar a un método
//! async de un *trait*, concurrencia acotada sobre un `Stream` y `Pin` más
//! allá de `pin!`.
//!
//! ```text
//! cargo run -p leccion-17 --release             # un millón de llamadas por ronda
//! cargo run -p leccion-17 -- --rapido           # dos mil, lo que usan las pruebas
//! ```

use std::cell::Cell;
use std::hint::black_box;
use std::pin::pin;
use std::rc::Rc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use leccion_17::{
    Almacen, AlmacenDyn, AlmacenEnCaja, AsignadorContador, Cronometrado, Cuenta, Memoria, Opciones, listo,
    reservas_hasta_ahora,
};
use medidas::{entero, mediana_y_extremos, numero};

#[global_allocator]
static ASIGNADOR: AsignadorContador = AsignadorContador;

fn main() {
    let opciones: Opciones = opciones::de_la_linea_de_ordenes();
    coste_por_llamada(&opciones);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("sin runtime");
    runtime.block_on(acotar(opciones.descarga()));
    anclar();
}

// ANCHOR: variantes
/// Llamada estática: el compilador conoce el tipo y su future; nada en caja.
fn llama_generico<A: Almacen>(almacen: &A, n: u32) -> u64 {
    (0..n).map(|i| listo(almacen.lee(black_box(i)))).sum()
}

/// Llamada dinámica con la caja escrita a mano.
fn llama_en_caja(almacen: &dyn AlmacenEnCaja, n: u32) -> u64 {
    (0..n).map(|i| listo(almacen.lee(black_box(i)))).sum()
}

/// Llamada dinámica con `#[async_trait]`.
fn llama_async_trait(almacen: &dyn AlmacenDyn, n: u32) -> u64 {
    (0..n).map(|i| listo(almacen.lee(black_box(i)))).sum()
}
// ANCHOR_END: variantes

/// Reservas por llamada y nanosegundos por llamada de una ronda.
fn ronda(n: u32, llamar: &dyn Fn(u32) -> u64) -> (f64, f64) {
    let antes = reservas_hasta_ahora();
    let inicio = Instant::now();
    black_box(llamar(n));
    let tiempo = inicio.elapsed();
    let reservas = reservas_hasta_ahora() - antes;
    (reservas as f64 / f64::from(n), tiempo.as_nanos() as f64 / f64::from(n))
}

fn coste_por_llamada(opciones: &Opciones) {
    let memoria = Memoria::new(1024);
    let en_caja: &dyn AlmacenEnCaja = black_box(&memoria);
    let dinamico: &dyn AlmacenDyn = black_box(&memoria);
    let variantes: [(&str, &dyn Fn(u32) -> u64); 3] = [
        ("genérico, async fn en el trait", &|n| llama_generico(&memoria, n)),
        ("dyn, caja escrita a mano", &|n| llama_en_caja(en_caja, n)),
        ("dyn, #[async_trait]", &|n| llama_async_trait(dinamico, n)),
    ];
    println!(
        "1. Cuánto cuesta una llamada ({} llamadas por ronda, {} rondas intercaladas tras una de calentamiento)",
        entero(u64::from(opciones.llamadas())),
        opciones.rondas()
    );
    // Una ronda de calentamiento de cada forma, sin contar.
    for (_, llamar) in &variantes {
        ronda(opciones.llamadas(), *llamar);
    }
    let mut reservas = vec![Vec::new(); variantes.len()];
    let mut tiempos = vec![Vec::new(); variantes.len()];
    for _ in 0..opciones.rondas() {
        for (i, (_, llamar)) in variantes.iter().enumerate() {
            let (r, t) = ronda(opciones.llamadas(), *llamar);
            reservas[i].push(r);
            tiempos[i].push(t);
        }
    }
    println!("   {:<32} {:>20}   ns por llamada: mediana (mín–máx)", "variante", "reservas por llamada");
    for (i, (nombre, _)) in variantes.iter().enumerate() {
        let (r, _, r_max) = mediana_y_extremos(&reservas[i]).unwrap_or_default();
        let (t, t_min, t_max) = mediana_y_extremos(&tiempos[i]).unwrap_or_default();
        println!("   {nombre:<32} {:>20}   {} ({}–{})", numero(r, 2), numero(t, 2), numero(t_min, 2), numero(t_max, 2));
        assert!(r_max <= r + 0.01, "las reservas por llamada no deberían variar entre rondas");
    }
    let caja = std::mem::size_of::<std::pin::Pin<Box<dyn std::future::Future<Output = u64> + Send>>>();
    let generico = std::mem::size_of_val(&Almacen::lee(&memoria, 1));
    println!(
        "   tamaño del future: genérico {generico} B; en caja, el puntero {caja} B (y el future, en el montículo)"
    );
}

// ANCHOR: acotar
/// Una descarga de mentira que anota cuántas hay en curso a la vez.
async fn descarga(clave: u32, dura: Duration, en_curso: Rc<Cell<u32>>, maximo: Rc<Cell<u32>>) -> u32 {
    en_curso.set(en_curso.get() + 1);
    maximo.set(maximo.get().max(en_curso.get()));
    tokio::time::sleep(dura).await;
    en_curso.set(en_curso.get() - 1);
    clave
}

async fn con_limite(claves: u32, limite: usize, dura: Duration) -> (u32, u32, Duration) {
    let (en_curso, maximo) = (Rc::new(Cell::new(0)), Rc::new(Cell::new(0)));
    // Las claves llegan por un canal de Tokio; ReceiverStream lo convierte en Stream.
    let (tx, rx) = tokio::sync::mpsc::channel(claves as usize);
    for clave in 0..claves {
        tx.send(clave).await.expect("el receptor sigue vivo");
    }
    drop(tx);
    let inicio = tokio::time::Instant::now();
    let hechas = tokio_stream::wrappers::ReceiverStream::new(rx)
        .map(|clave| descarga(clave, dura, en_curso.clone(), maximo.clone()))
        .buffer_unordered(limite) // como mucho `limite` futures en curso
        .count()
        .await;
    (hechas as u32, maximo.get(), inicio.elapsed())
}
// ANCHOR_END: acotar

async fn acotar(dura: Duration) {
    println!("2. Concurrencia acotada sobre un Stream (12 descargas de {} ms)", dura.as_millis());
    for (nombre, limite) in [("buffer_unordered(4)", 4), ("buffer_unordered(usize::MAX)", usize::MAX)] {
        let (hechas, maximo, tiempo) = con_limite(12, limite, dura).await;
        println!(
            "   {nombre:<30} hechas {hechas}, en curso a la vez como mucho {maximo}, en {} ms",
            numero(tiempo.as_secs_f64() * 1000.0, 1)
        );
    }
    let cuenta: Vec<u32> = Cuenta::new(5).collect().await;
    println!("   un Stream escrito a mano (Cuenta::new(5)): {cuenta:?}");
}

/// Una guarda que cuenta cuándo se suelta lo que la contiene.
struct Guarda(Rc<Cell<u32>>);

impl Drop for Guarda {
    fn drop(&mut self) {
        self.0.set(self.0.get() + 1);
    }
}

async fn con_guarda(guarda: Guarda, valor: u32) -> u32 {
    tokio::task::yield_now().await;
    drop(guarda);
    valor
}

// ANCHOR: set
fn anclar() {
    println!("3. Pin más allá de pin!");
    let soltadas = Rc::new(Cell::new(0));
    let runtime = tokio::runtime::Builder::new_current_thread().build().expect("sin runtime");
    runtime.block_on(async {
        let mut actual = pin!(Cronometrado::new(con_guarda(Guarda(soltadas.clone()), 1)));
        // Un sondeo: el future queda a medias, con su guarda dentro.
        let _ = futures::poll!(actual.as_mut());
        println!("   a medias tras un sondeo; guardas soltadas: {}", soltadas.get());
        // Pin::set suelta el viejo EN SU SITIO y pone el nuevo en la misma memoria.
        actual.set(Cronometrado::new(con_guarda(Guarda(soltadas.clone()), 2)));
        println!("   después de Pin::set:         guardas soltadas: {}", soltadas.get());
        let (valor, sondeos) = actual.as_mut().await;
        println!("   el nuevo dio {valor} en {sondeos} sondeos; guardas soltadas: {}", soltadas.get());
    });
}
// ANCHOR_END: set
