//! El mismo servicio, un eco por TCP, construido de tres maneras. Cada una
//! arranca sus hilos y devuelve el puerto en el que escucha; los hilos viven
//! hasta que el proceso acaba (la lección ejecuta cada servidor en un
//! proceso hijo y lo termina al acabar la medida).

use std::io;
use std::net::{SocketAddr, TcpListener};

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::sistema::{escuchas_compartidas, fija_hilo_a, nucleos_permitidos};

/// Las tres maneras.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Servidor {
    /// Un *runtime* de Tokio multihilo, con un solo *socket* de escucha.
    TokioMultihilo,
    /// Un *runtime* de Tokio de un hilo por núcleo, fijado, con `SO_REUSEPORT`.
    TokioPorNucleo,
    /// Un anillo de `io_uring` por núcleo, fijado, con `SO_REUSEPORT`.
    UringPorNucleo,
}

impl Servidor {
    pub const TODOS: [Servidor; 3] = [Servidor::TokioMultihilo, Servidor::TokioPorNucleo, Servidor::UringPorNucleo];

    pub fn nombre(self) -> &'static str {
        match self {
            Servidor::TokioMultihilo => "tokio_multihilo",
            Servidor::TokioPorNucleo => "tokio_por_nucleo",
            Servidor::UringPorNucleo => "uring_por_nucleo",
        }
    }

    pub fn etiqueta(self) -> &'static str {
        match self {
            Servidor::TokioMultihilo => "Tokio multihilo",
            Servidor::TokioPorNucleo => "Tokio, un runtime por núcleo",
            Servidor::UringPorNucleo => "io_uring, un anillo por núcleo",
        }
    }

    pub fn desde_nombre(nombre: &str) -> Option<Servidor> {
        Servidor::TODOS.into_iter().find(|s| s.nombre() == nombre)
    }

    /// Arranca el servidor con `hilos` hilos y devuelve su puerto.
    pub fn arranca(self, hilos: usize) -> io::Result<u16> {
        match self {
            Servidor::TokioMultihilo => tokio_multihilo(hilos),
            Servidor::TokioPorNucleo => tokio_por_nucleo(hilos),
            Servidor::UringPorNucleo => uring_por_nucleo(hilos),
        }
    }
}

fn local() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 0))
}

// ANCHOR: eco
/// Atiende una conexión: devuelve cada byte que llega.
async fn eco(mut conexion: tokio::net::TcpStream) {
    let _ = conexion.set_nodelay(true);
    let mut bufer = vec![0u8; 4096];
    loop {
        let n = match conexion.read(&mut bufer).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        if conexion.write_all(&bufer[..n]).await.is_err() {
            return;
        }
    }
}
// ANCHOR_END: eco

fn tokio_multihilo(hilos: usize) -> io::Result<u16> {
    let escucha = TcpListener::bind(local())?;
    escucha.set_nonblocking(true)?;
    let puerto = escucha.local_addr()?.port();
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(hilos).enable_all().build()?;
    std::thread::spawn(move || {
        rt.block_on(async move {
            let escucha = tokio::net::TcpListener::from_std(escucha).expect("registrar la escucha");
            while let Ok((conexion, _)) = escucha.accept().await {
                tokio::spawn(eco(conexion));
            }
        })
    });
    Ok(puerto)
}

// ANCHOR: por_nucleo
fn tokio_por_nucleo(hilos: usize) -> io::Result<u16> {
    let nucleos = nucleos_permitidos()?;
    let escuchas = escuchas_compartidas(hilos, local())?;
    let puerto = escuchas[0].local_addr()?.port();
    for (i, escucha) in escuchas.into_iter().enumerate() {
        let nucleo = nucleos[i % nucleos.len()];
        std::thread::spawn(move || {
            let _ = fija_hilo_a(nucleo); // si no se puede (otro sistema), sigue sin fijar
            // Un runtime local: de un hilo, y acepta tareas que no son Send.
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build_local(Default::default())
                .expect("crear el runtime local");
            rt.block_on(async move {
                let escucha = tokio::net::TcpListener::from_std(escucha).expect("registrar la escucha");
                while let Ok((conexion, _)) = escucha.accept().await {
                    tokio::task::spawn_local(eco(conexion)); // nunca sale de este hilo
                }
            })
        });
    }
    Ok(puerto)
}
// ANCHOR_END: por_nucleo

#[cfg(target_os = "linux")]
fn uring_por_nucleo(hilos: usize) -> io::Result<u16> {
    crate::sistema::io_uring_disponible()?;
    let nucleos = nucleos_permitidos()?;
    let escuchas = escuchas_compartidas(hilos, local())?;
    let puerto = escuchas[0].local_addr()?.port();
    for (i, escucha) in escuchas.into_iter().enumerate() {
        let nucleo = nucleos[i % nucleos.len()];
        let anillo = io_uring::IoUring::new(256)?; // aquí, para que un fallo llegue a quien llama
        std::thread::spawn(move || {
            let _ = fija_hilo_a(nucleo);
            if let Err(e) = crate::anillo::eco_con_io_uring(anillo, escucha) {
                eprintln!("el anillo del núcleo {nucleo} se detuvo: {e}");
            }
        });
    }
    Ok(puerto)
}

#[cfg(not(target_os = "linux"))]
fn uring_por_nucleo(_hilos: usize) -> io::Result<u16> {
    Err(io::Error::new(io::ErrorKind::Unsupported, "io_uring solo existe en Linux"))
}
