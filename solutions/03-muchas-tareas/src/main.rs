//! `cargo run -p soluciones-03`: las tres soluciones del capítulo 03 en marcha,
//! con conexiones de verdad por 127.0.0.1.

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;

use muchas_tareas::{acepta, eco, lineas};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    println!("1. eco: un servidor de una conexión y un cliente que le manda 1 MiB");
    let escucha = TcpListener::bind("127.0.0.1:0").await?;
    let direccion = escucha.local_addr()?;
    let servidor = tokio::spawn(async move { eco::atiende(escucha.accept().await?.0).await });
    let (mut lector, mut escritor) = TcpStream::connect(direccion).await?.into_split();
    let datos = vec![7u8; 1 << 20];
    let escribe = tokio::spawn(async move {
        escritor.write_all(&datos).await?;
        escritor.shutdown().await
    });
    let mut vuelta = Vec::new();
    lector.read_to_end(&mut vuelta).await?;
    escribe.await.unwrap()?;
    println!(
        "   el cliente recibió {} bytes; el servidor dice que devolvió {}",
        vuelta.len(),
        servidor.await.unwrap()?
    );

    println!("2. acepta: doscientos clientes a la vez, y luego la señal de apagado");
    let escucha = TcpListener::bind("127.0.0.1:0").await?;
    let direccion = escucha.local_addr()?;
    let (apaga, senal) = oneshot::channel::<()>();
    let servidor = tokio::spawn(acepta::sirve(escucha, async move {
        let _ = senal.await;
    }));
    let mut clientes = Vec::new();
    for _ in 0..200 {
        let mut cliente = TcpStream::connect(direccion).await?;
        let mut saludo = [0u8; 5];
        cliente.read_exact(&mut saludo).await?;
        clientes.push(cliente); // sigue abierta
    }
    println!("   {} clientes conectados a la vez, todos saludados", clientes.len());
    apaga.send(()).unwrap();
    println!("   apagado: sirve aceptó {} conexiones", servidor.await.unwrap()?);
    drop(clientes);

    println!("3. lineas: una conversación con el protocolo de líneas");
    let escucha = TcpListener::bind("127.0.0.1:0").await?;
    let direccion = escucha.local_addr()?;
    let servidor = tokio::spawn(async move { lineas::atiende_lineas(escucha.accept().await?.0).await });
    let (lector, mut escritor) = TcpStream::connect(direccion).await?.into_split();
    // Todas las órdenes de una vez, y una partida en dos escrituras.
    escritor.write_all(b"ECO hola\nMAYUS despacio\nSUMA 1 2 3 4\nBAILA\nAD").await?;
    escritor.write_all(b"IOS\n").await?;
    let mut respuestas = BufReader::new(lector).lines();
    while let Some(respuesta) = respuestas.next_line().await? {
        println!("   < {respuesta}");
    }
    println!("   el servidor contestó {} líneas y cerró", servidor.await.unwrap()?);
    Ok(())
}
