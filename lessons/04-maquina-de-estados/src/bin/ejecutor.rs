//! Un ejecutor mínimo, paso a paso: una máquina de estados sondeada a mano,
//! `block_on` con un temporizador y una cola de tareas.
//!
//! ```text
//! cargo run -p leccion-04 --release --bin ejecutor
//! cargo run -p leccion-04 --bin ejecutor -- --rapido   # lo que usan las pruebas
//! ```

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll, Wake, Waker};
use std::time::{Duration, Instant};

use leccion_04::ceder::ceder;
use leccion_04::ejecutor::{MiniEjecutor, block_on};
use leccion_04::maquina::DosPasos;
use leccion_04::temporizador::Temporizador;
use leccion_04::{Opciones, activa_traza};
use medidas::numero;

/// Un waker que solo cuenta cuántas veces lo llaman.
struct CuentaDespertares(AtomicUsize);

impl Wake for CuentaDespertares {
    fn wake(self: Arc<Self>) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

/// Envuelve un future e imprime el resultado de cada sondeo.
struct Trazado<F> {
    nombre: &'static str,
    sondeos: usize,
    future: Pin<Box<F>>,
}

impl<F: Future> Future for Trazado<F> {
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        self.sondeos += 1;
        let resultado = self.future.as_mut().poll(cx);
        let que = if resultado.is_ready() { "Ready" } else { "Pending" };
        println!("[block_on] sondeo {} de {}: {que}", self.sondeos, self.nombre);
        resultado
    }
}

fn main() {
    let opciones: Opciones = opciones::de_la_linea_de_ordenes();
    activa_traza();

    println!("1. DosPasos, sondeado a mano con un waker que cuenta:");
    let contador = Arc::new(CuentaDespertares(AtomicUsize::new(0)));
    let waker = Waker::from(Arc::clone(&contador));
    let mut cx = Context::from_waker(&waker);
    let mut maquina = DosPasos::new(10);
    let mut sondeo = 0;
    loop {
        sondeo += 1;
        let antes = maquina.estado();
        let resultado = Pin::new(&mut maquina).poll(&mut cx);
        println!(
            "   sondeo {sondeo}: {antes} -> {} ({resultado:?}, despertares hasta ahora: {})",
            maquina.estado(),
            contador.0.load(Ordering::Relaxed)
        );
        if resultado.is_ready() {
            break;
        }
    }

    let plazo = Duration::from_millis(if opciones.rapido { 20 } else { 200 });
    println!();
    println!("2. block_on con un Temporizador de {} ms:", plazo.as_millis());
    let inicio = Instant::now();
    block_on(Trazado { nombre: "Temporizador", sondeos: 0, future: Box::pin(Temporizador::new(plazo)) });
    println!(
        "   terminó en {} ms con el hilo dormido mientras tanto",
        numero(inicio.elapsed().as_secs_f64() * 1000.0, 1)
    );

    let pasos = if opciones.rapido { 2 } else { 3 };
    println!();
    println!("3. MiniEjecutor: A y B ceden {pasos} veces cada una; C espera un Temporizador:");
    let mut ejecutor = MiniEjecutor::new();
    for nombre in ["A", "B"] {
        ejecutor.lanza(nombre, async move {
            for paso in 1..=pasos {
                println!("    ({nombre}: paso {paso} de {pasos}, cedo)");
                ceder().await;
            }
            println!("    ({nombre}: fin)");
        });
    }
    ejecutor.lanza("C", async move {
        println!("    (C: arranco el temporizador de {} ms)", plazo.as_millis());
        Temporizador::new(plazo).await;
        println!("    (C: fin)");
    });
    let sondeos = ejecutor.ejecuta();
    println!("Sondeos en total: {sondeos} (A y B: {} cada una; C: 2)", pasos + 1);
}
