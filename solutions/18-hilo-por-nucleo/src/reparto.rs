//! Ejercicio 2: repartir las conexiones entre núcleos con `SO_REUSEPORT`.
//!
//! `escuchas(n, direccion)` abre `n` *sockets* de escucha TCP en el mismo
//! puerto, cada uno con `SO_REUSEPORT` (se activa antes de `bind`), no
//! bloqueantes (para dárselos a un *runtime*, uno por hilo). Si el puerto de
//! `direccion` es 0, el primero elige uno libre y los demás usan ese. Pedir
//! cero escuchas es un error de tipo `InvalidInput`.
//!
//! Con una dirección IPv6 (`[::1]:0`), las escuchas son IPv6: el dominio del
//! *socket* sale de la dirección, no se da por hecho.
//!
//! `acepta_pendientes(escuchas)` acepta, sin esperar, todas las conexiones
//! que cada escucha tiene ya en cola y dice cuántas aceptó cada una (en el
//! mismo orden). Las conexiones aceptadas se cierran enseguida. Los errores
//! de `accept`: `WouldBlock` es «no hay más» (pasa a la escucha siguiente);
//! `Interrupted` (una señal cortó la llamada) se reintenta; cualquier otro
//! (sin descriptores libres, por ejemplo) se devuelve enseguida, sin tocar
//! las escuchas que faltan.
//!
//! `acepta_pendientes` trabaja con cualquier [`Escucha`], no solo con
//! `TcpListener`: así las pruebas pueden darle una de imitación que falla
//! cuando ellas quieren, con errores que un *socket* de verdad no da a
//! demanda.

use std::io;
use std::net::{SocketAddr, TcpListener};

use socket2::{Domain, Protocol, Socket, Type};

/// Lo que `acepta_pendientes` necesita de una escucha.
pub trait Escucha {
    /// Acepta una conexión de la cola, sin esperar, y la cierra.
    fn acepta(&self) -> io::Result<()>;
}

impl Escucha for TcpListener {
    fn acepta(&self) -> io::Result<()> {
        self.accept().map(drop)
    }
}

/// `n` escuchas no bloqueantes en el mismo puerto, con `SO_REUSEPORT`.
pub fn escuchas(n: usize, direccion: SocketAddr) -> io::Result<Vec<TcpListener>> {
    if n == 0 {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "hacen falta una o más escuchas"));
    }
    let mut direccion = direccion;
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        let socket = Socket::new(Domain::for_address(direccion), Type::STREAM, Some(Protocol::TCP))?;
        socket.set_reuse_port(true)?;
        socket.set_nonblocking(true)?;
        socket.bind(&direccion.into())?;
        socket.listen(1024)?;
        let escucha: TcpListener = socket.into();
        direccion = escucha.local_addr()?;
        v.push(escucha);
    }
    Ok(v)
}

/// Cuántas conexiones en cola aceptó cada escucha, sin esperar.
pub fn acepta_pendientes<E: Escucha>(escuchas: &[E]) -> io::Result<Vec<usize>> {
    let mut cuentas = Vec::with_capacity(escuchas.len());
    for escucha in escuchas {
        let mut n = 0;
        loop {
            match escucha.acepta() {
                Ok(_) => n += 1,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
        cuentas.push(n);
    }
    Ok(cuentas)
}
