//! Cuánto ocupa un *future*: `size_of_val` de varios, y cuánta memoria pide
//! `tokio::spawn` al convertir algunos en tareas.
//!
//! ```text
//! cargo run -p leccion-04 --release --bin tamanos
//! cargo run -p leccion-04 --bin tamanos -- --rapido   # lo que usan las pruebas
//! ```

use std::future::Future;
use std::hint::black_box;
use std::mem::size_of_val;
use std::time::Duration;

use leccion_04::ceder::ceder;
use leccion_04::maquina::{DosPasos, dos_pasos};
use leccion_04::{AsignadorContador, Opciones, pedido_hasta_ahora};
use medidas::{entero, numero};

#[global_allocator]
static ASIGNADOR: AsignadorContador = AsignadorContador;

// ANCHOR: bufer
/// El búfer sigue vivo en el `.await`: viaja dentro de la máquina de estados.
async fn guarda_bufer() -> u8 {
    let bufer = [7u8; 4096];
    ceder().await;
    black_box(&bufer)[0]
}

/// El búfer muere antes del `.await`: la máquina de estados no lo guarda.
async fn suelta_bufer() -> u8 {
    let primero = {
        let bufer = [7u8; 4096];
        black_box(&bufer)[0]
    };
    ceder().await;
    primero
}

/// Un búfer que no es `Copy`, para que `drop` lo suelte de verdad.
struct Bufer([u8; 4096]);

/// `drop` antes del `.await`, pero el búfer se prestó (`&bufer`): el
/// compilador lo da por vivo hasta el final de su ámbito y lo guarda igual.
#[allow(clippy::drop_non_drop)] // el `drop` es justo lo que se mide
async fn suelta_con_drop() -> u8 {
    let bufer = Bufer([7u8; 4096]);
    let primero = black_box(&bufer).0[0];
    drop(bufer);
    ceder().await;
    primero
}
// ANCHOR_END: bufer

// ANCHOR: anidados
/// Tres niveles de `async fn`, cada uno con 256 B vivos a través de su `.await`.
async fn nivel_3() -> u64 {
    let datos = [3u64; 32];
    ceder().await;
    black_box(&datos).iter().sum()
}

async fn nivel_2() -> u64 {
    let datos = [2u64; 32];
    let de_abajo = nivel_3().await; // el future de nivel_3 vive DENTRO del de nivel_2
    de_abajo + black_box(&datos).iter().sum::<u64>()
}

async fn nivel_1() -> u64 {
    let datos = [1u64; 32];
    let de_abajo = nivel_2().await;
    de_abajo + black_box(&datos).iter().sum::<u64>()
}

/// Dos esperas una detrás de otra: nunca hay dos `nivel_3` vivos a la vez.
async fn en_serie() -> u64 {
    nivel_3().await + nivel_3().await
}

/// Dos esperas a la vez: los dos `nivel_3` viven juntos.
async fn a_la_vez() -> u64 {
    let (a, b) = tokio::join!(nivel_3(), nivel_3());
    a + b
}
// ANCHOR_END: anidados

fn fila(que: &str, bytes: usize) {
    println!("  {que:<52} {:>6} B", entero(bytes as u64));
}

fn main() {
    let opciones: Opciones = opciones::de_la_linea_de_ordenes();
    let modo = if cfg!(debug_assertions) { "debug" } else { "release" };
    let runtime = tokio::runtime::Runtime::new().expect("no se pudo crear el runtime");
    // `tokio::time::sleep` necesita un runtime alrededor solo para crearse.
    let _dentro = runtime.enter();
    let espera = Duration::from_millis(1);

    println!("Tamaño de cada future (size_of_val), compilado en modo {modo}:");
    // ANCHOR: medir
    fila("async {}", size_of_val(&async {}));
    fila("dos_pasos(1)  (lo genera el compilador)", size_of_val(&dos_pasos(1)));
    fila("DosPasos::new(1)  (escrito a mano)", size_of_val(&DosPasos::new(1)));
    fila("guarda_bufer()  ([u8; 4096] vivo en el .await)", size_of_val(&guarda_bufer()));
    fila("suelta_bufer()  ([u8; 4096] muerto antes)", size_of_val(&suelta_bufer()));
    fila("suelta_con_drop()  (prestado, drop antes)", size_of_val(&suelta_con_drop()));
    fila("nivel_3()", size_of_val(&nivel_3()));
    fila("nivel_2()  (espera a nivel_3)", size_of_val(&nivel_2()));
    fila("nivel_1()  (espera a nivel_2)", size_of_val(&nivel_1()));
    fila("en_serie()  (nivel_3 dos veces, una tras otra)", size_of_val(&en_serie()));
    fila("a_la_vez()  (join! de dos nivel_3)", size_of_val(&a_la_vez()));
    fila("tokio::time::sleep(1 ms)", size_of_val(&tokio::time::sleep(espera)));
    fila("async { sleep(1 ms).await }", size_of_val(&async move { tokio::time::sleep(espera).await }));
    let en_caja = Box::pin(guarda_bufer());
    fila("Box::pin(guarda_bufer())  (el puntero)", size_of_val(&en_caja));
    fila("  ...y lo que hay en la caja", size_of_val(&*en_caja));
    // ANCHOR_END: medir
    drop(en_caja);

    let tareas = if opciones.rapido { 100 } else { 10_000 };
    println!();
    println!("Memoria que pide tokio::spawn por tarea ({} tareas de cada clase):", entero(tareas));
    runtime.block_on(async move {
        por_tarea("async {}", tareas, || async {}).await;
        por_tarea("async { sleep(1 ms).await }", tareas, move || async move {
            tokio::time::sleep(espera).await;
        })
        .await;
        por_tarea("guarda_bufer()", tareas, guarda_bufer).await;
    });
    println!();
    println!("size_of_val solo cuenta la máquina de estados, no lo que está en otras reservas.");
}

/// Lanza `n` tareas hechas con `crea`, mide lo que se pidió al asignador
/// mientras se lanzaban y las espera todas.
async fn por_tarea<F, T>(que: &str, n: u64, crea: impl Fn() -> F)
where
    F: Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let tamano = size_of_val(&crea());
    let mut handles = Vec::with_capacity(n as usize); // reservado antes de medir
    let (bytes_antes, reservas_antes) = pedido_hasta_ahora();
    for _ in 0..n {
        handles.push(tokio::spawn(crea()));
    }
    let (bytes_despues, reservas_despues) = pedido_hasta_ahora();
    for h in handles {
        h.await.expect("ninguna tarea debería fallar");
    }
    let bytes = (bytes_despues - bytes_antes) as f64 / n as f64;
    let reservas = (reservas_despues - reservas_antes) as f64 / n as f64;
    println!(
        "  {que:<32} future de {:>5} B -> {:>7} B por tarea en {} reservas",
        entero(tamano as u64),
        numero(bytes, 1),
        numero(reservas, 2)
    );
}
