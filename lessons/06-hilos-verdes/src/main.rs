//! Cien mil tareas: cuánto tardan, cuánta memoria pide cada una y cuánta
//! memoria residente usa el proceso en su pico.
//!
//! ```text
//! cargo run -p leccion-06 --release            # 100 000 tareas
//! cargo run -p leccion-06 --release -- --tareas 500000
//! cargo run -p leccion-06 -- --rapido          # mil tareas, lo que usan las pruebas
//! ```

use std::time::{Duration, Instant};

use leccion_06::{AsignadorContador, Opciones, pedido_hasta_ahora};
use medidas::{campo_de_proc, entero, numero};

#[global_allocator]
static ASIGNADOR: AsignadorContador = AsignadorContador;

fn main() {
    let opciones: Opciones = opciones::de_la_linea_de_ordenes();
    let runtime = tokio::runtime::Runtime::new().expect("no se pudo crear el runtime");
    runtime.block_on(demo(opciones.tareas));
}

async fn demo(n: u32) {
    // ANCHOR: lanzar
    let mut tareas = Vec::with_capacity(n as usize); // reservado antes de medir
    let (bytes_antes, reservas_antes) = pedido_hasta_ahora();
    let inicio = Instant::now();
    for id in 0..n {
        tareas.push(tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(10)).await;
            u64::from(id)
        }));
    }
    let lanzar = inicio.elapsed();
    let (bytes_despues, reservas_despues) = pedido_hasta_ahora();
    // ANCHOR_END: lanzar

    let mut suma = 0u64;
    for tarea in tareas {
        suma += tarea.await.expect("ninguna tarea debería fallar");
    }
    let total = inicio.elapsed();

    let ejemplo = async {
        tokio::time::sleep(Duration::from_millis(10)).await;
        0u64
    };
    let bytes = bytes_despues - bytes_antes;
    let reservas = reservas_despues - reservas_antes;
    println!("Tareas lanzadas:                 {}", entero(u64::from(n)));
    println!("Tiempo en lanzarlas:             {} ms", numero(ms(lanzar), 1));
    println!("Tiempo total (lanzar y recoger): {} ms", numero(ms(total), 1));
    println!("Tamaño del future (size_of_val): {} B", entero(std::mem::size_of_val(&ejemplo) as u64));
    println!(
        "Memoria pedida al lanzar:        {} B en {} reservas = {} B por tarea",
        entero(bytes),
        entero(reservas),
        entero(bytes / u64::from(n))
    );
    match campo_de_proc("VmHWM") {
        Some(pico) => println!(
            "Pico de memoria residente:       {} MiB (todo el proceso, runtime incluido)",
            numero(pico as f64 / (1024.0 * 1024.0), 1)
        ),
        None => println!("Pico de memoria residente:       no disponible (este sistema no tiene /proc)"),
    }
    println!("Suma de comprobación:            {suma}");
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
