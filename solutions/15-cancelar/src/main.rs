//! `cargo run -p soluciones-15`: las tres soluciones del capítulo 15 en marcha.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cancelar::apagado::sirve;
use cancelar::arbol::{Nodo, Registro, ejecuta};
use cancelar::tramas::LectorDeTramas;
use tokio::io::AsyncWriteExt;
use tokio::sync::mpsc;
use tokio::time::sleep;
use tokio_util::sync::CancellationToken;

/// Un registro que imprime lo que pasa en el árbol.
struct Imprime(Mutex<Vec<String>>);

impl Registro for Imprime {
    fn empieza(&self, _nombre: &str, _token: CancellationToken) {}
    fn termina(&self, nombre: &str) {
        self.0.lock().unwrap().push(nombre.to_string());
    }
}

#[tokio::main]
async fn main() {
    println!("1. tramas: un escritor lento y un select! con un latido cada 2 ms");
    let (mut escribe, lee) = tokio::io::duplex(64);
    tokio::spawn(async move {
        for texto in ["hola", "", "una trama algo más larga", "adiós"] {
            let mut trama = (texto.len() as u32).to_be_bytes().to_vec();
            trama.extend_from_slice(texto.as_bytes());
            for byte in trama {
                escribe.write_all(&[byte]).await.unwrap();
                sleep(Duration::from_millis(1)).await;
            }
        }
    });
    let mut lector = LectorDeTramas::new(lee, 1024);
    let mut latido = tokio::time::interval(Duration::from_millis(2));
    let mut latidos = 0;
    loop {
        tokio::select! {
            trama = lector.siguiente() => match trama.expect("tramas bien formadas") {
                Some(t) => println!("   trama: {:?}", String::from_utf8_lossy(&t)),
                None => break,
            },
            _ = latido.tick() => latidos += 1,
        }
    }
    println!("   el latido ganó {latidos} veces (y cada vez soltó la lectura en curso); no se perdió nada");

    println!("2. apagado: cinco conexiones (10, 20, 30, 40 ms y 1 h); parar a los 5 ms con plazo de 50 ms");
    let (tx, rx) = mpsc::channel(8);
    for dura in [10, 20, 30, 40, 3_600_000] {
        tx.send(Duration::from_millis(dura)).await.unwrap();
    }
    let parar = CancellationToken::new();
    {
        let parar = parar.clone();
        tokio::spawn(async move {
            sleep(Duration::from_millis(5)).await;
            parar.cancel();
        });
    }
    let inicio = Instant::now();
    let informe = sirve(rx, |dura| sleep(dura), parar, Duration::from_millis(50)).await;
    println!("   {informe:?} en {}", medidas::milisegundos(inicio.elapsed()));

    println!("3. árbol: raíz → (a → a1, b); se cancela la raíz a los 5 ms");
    let arbol = Nodo::new("raíz", vec![Nodo::new("a", vec![Nodo::new("a1", vec![])]), Nodo::new("b", vec![])]);
    let registro = Arc::new(Imprime(Mutex::new(Vec::new())));
    let token = CancellationToken::new();
    {
        let token = token.clone();
        tokio::spawn(async move {
            sleep(Duration::from_millis(5)).await;
            token.cancel();
        });
    }
    ejecuta(arbol, token, registro.clone()).await;
    println!("   terminaron, en este orden: {}", registro.0.lock().unwrap().join(", "));
}
