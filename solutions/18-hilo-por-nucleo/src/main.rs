//! `cargo run -p soluciones-18`: las tres soluciones del capítulo 18 en marcha.

use std::future::Future;
use std::io;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use por_nucleo::finalizacion::Fuente;
use por_nucleo::lectura::Lector;
use por_nucleo::{fijar, reparto};

/// Una fuente en memoria: cada lectura copia el siguiente trozo, pero tarda
/// un sondeo en terminar (el primero dice «todavía no»), como una lectura que
/// espera en el kernel.
struct Trozos {
    trozos: Vec<&'static [u8]>,
    lecturas: usize,
}

struct Lectura {
    bufer: Option<Vec<u8>>,
    trozo: &'static [u8],
    sondeada: bool,
}

impl Future for Lectura {
    type Output = (io::Result<usize>, Vec<u8>);
    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        if !self.sondeada {
            self.sondeada = true;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        let mut bufer = self.bufer.take().expect("una vez");
        let n = self.trozo.len().min(bufer.capacity() - bufer.len());
        bufer.extend_from_slice(&self.trozo[..n]);
        Poll::Ready((Ok(n), bufer))
    }
}

impl Fuente for Trozos {
    type Lectura = Lectura;
    fn leer(&mut self, bufer: Vec<u8>) -> Lectura {
        self.lecturas += 1;
        let trozo = if self.trozos.is_empty() { &b""[..] } else { self.trozos.remove(0) };
        Lectura { bufer: Some(bufer), trozo, sondeada: false }
    }
}

/// Conduce un future hasta el final con un despertador que no hace nada.
fn bloquea<T>(f: impl Future<Output = T>) -> T {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

fn main() -> io::Result<()> {
    println!("1. lectura: líneas con un búfer prestado, y una cancelación a mitad");
    let mut lector = Lector::new(Trozos { trozos: vec![b"hola\nmun", b"do\nadi", b"os\n"], lecturas: 0 }, 64);
    {
        // Un sondeo y se cancela: la lectura queda guardada en el lector.
        let mut f = pin!(lector.linea());
        let _ = f.as_mut().poll(&mut Context::from_waker(Waker::noop()));
    }
    while let Some(linea) = bloquea(lector.linea())? {
        println!("   línea: {:?}", String::from_utf8_lossy(&linea));
    }

    println!("2. reparto: dos escuchas en el mismo puerto con SO_REUSEPORT");
    let escuchas = reparto::escuchas(2, "127.0.0.1:0".parse().unwrap())?;
    let destino = escuchas[0].local_addr()?;
    let clientes: Vec<_> = (0..100).map(|_| std::net::TcpStream::connect(destino)).collect::<Result<_, _>>()?;
    let cuentas = reparto::acepta_pendientes(&escuchas)?;
    println!("   puerto {}: 100 conexiones, aceptadas por cada escucha: {cuentas:?}", destino.port());
    drop(clientes);

    println!("3. fijar: un hilo por núcleo permitido (dos vueltas)");
    match fijar::permitidos() {
        Ok(nucleos) => {
            let hilos = fijar::lanza_fijados(2 * nucleos.len(), |i, nucleo| (i, nucleo))?;
            for h in hilos {
                match h.join().expect("el hilo terminó") {
                    Ok((i, nucleo)) => println!("   hilo {i} fijado al núcleo {nucleo}"),
                    Err(e) => println!("   un hilo no pudo fijarse: {e}"),
                }
            }
        }
        Err(e) => println!("   aquí no se puede: {e}"),
    }
    Ok(())
}
