//! Los dos servidores de eco de la lección. Hacen lo mismo (devuelven cada
//! byte que reciben, hasta que el cliente cierra) y se diferencian solo en
//! quién espera: un hilo del sistema por conexión, o una tarea por conexión
//! sobre unos pocos hilos trabajadores.
//!
//! Cada servidor lleva la cuenta de sus conexiones abiertas, para que el
//! informe diga cuántas sostenía en el momento de medir.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Conexiones abiertas ahora y conexiones rechazadas desde el principio.
#[derive(Debug, Default)]
pub struct Contadores {
    pub abiertas: AtomicUsize,
    pub rechazadas: AtomicUsize,
}

/// Resta una conexión abierta al soltarse, pase lo que pase con ella.
struct Abierta(Arc<Contadores>);

impl Abierta {
    fn nueva(contadores: &Arc<Contadores>) -> Abierta {
        contadores.abiertas.fetch_add(1, Ordering::Relaxed);
        Abierta(contadores.clone())
    }
}

impl Drop for Abierta {
    fn drop(&mut self) {
        self.0.abiertas.fetch_sub(1, Ordering::Relaxed);
    }
}

/// El servidor de un hilo por conexión, con la biblioteca estándar.
pub mod con_hilos {
    use std::io::{Read, Write};
    use std::net::{TcpListener, TcpStream};
    use std::sync::Arc;
    use std::sync::atomic::Ordering;
    use std::thread;

    use super::{Abierta, Contadores};

    // ANCHOR: hilos
    /// Acepta conexiones para siempre; cada una, en su propio hilo. No pasa de
    /// `max_hilos` conexiones a la vez: las que sobran se cierran nada más
    /// aceptarlas, y también las que llegan si el sistema no deja crear otro
    /// hilo.
    pub fn sirve(escucha: TcpListener, max_hilos: usize, contadores: Arc<Contadores>) {
        for conexion in escucha.incoming() {
            let Ok(conexion) = conexion else { continue };
            if contadores.abiertas.load(Ordering::Relaxed) >= max_hilos {
                contadores.rechazadas.fetch_add(1, Ordering::Relaxed);
                continue; // soltar `conexion` la cierra
            }
            let abierta = Abierta::nueva(&contadores);
            let lanzado = thread::Builder::new().name("eco".into()).spawn(move || {
                let _abierta = abierta;
                let _ = eco(conexion);
            });
            if lanzado.is_err() {
                contadores.rechazadas.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    fn eco(mut conexion: TcpStream) -> std::io::Result<()> {
        let mut bufer = [0u8; 1024]; // en la pila de este hilo
        loop {
            let n = conexion.read(&mut bufer)?; // el hilo duerme aquí
            if n == 0 {
                return Ok(()); // el cliente cerró
            }
            conexion.write_all(&bufer[..n])?;
        }
    }
    // ANCHOR_END: hilos
}

/// El servidor de una tarea por conexión, con Tokio.
pub mod con_tokio {
    use std::sync::Arc;

    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::{TcpListener, TcpStream};

    use super::{Abierta, Contadores};

    // ANCHOR: tokio
    /// Acepta conexiones para siempre; cada una, en su propia tarea.
    pub async fn sirve(escucha: TcpListener, contadores: Arc<Contadores>) {
        loop {
            let Ok((conexion, _)) = escucha.accept().await else { continue };
            let abierta = Abierta::nueva(&contadores);
            tokio::spawn(async move {
                let _abierta = abierta;
                let _ = eco(conexion).await;
            });
        }
    }

    async fn eco(mut conexion: TcpStream) -> std::io::Result<()> {
        let mut bufer = [0u8; 1024]; // dentro del estado de la tarea
        loop {
            let n = conexion.read(&mut bufer).await?; // la tarea cede aquí
            if n == 0 {
                return Ok(()); // el cliente cerró
            }
            conexion.write_all(&bufer[..n]).await?;
        }
    }
    // ANCHOR_END: tokio
}
