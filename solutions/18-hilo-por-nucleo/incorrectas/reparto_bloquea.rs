// INCORRECTA: las escuchas quedan bloqueantes. Un runtime que las use
// (`TcpListener::from_std`) se quedaría parado en `accept`, y
// `acepta_pendientes` no pararía nunca al vaciar la cola.
//! Ejercicio 2: repartir las conexiones entre núcleos con `SO_REUSEPORT`.
//!
//! `escuchas(n, direccion)` abre `n` *sockets* de escucha TCP en el mismo
//! puerto, cada uno con `SO_REUSEPORT` (se activa antes de `bind`), no
//! bloqueantes (para dárselos a un *runtime*, uno por hilo). Si el puerto de
//! `direccion` es 0, el primero elige uno libre y los demás usan ese. Pedir
//! cero escuchas es un error de tipo `InvalidInput`.
//!
//! `acepta_pendientes(escuchas)` acepta, sin esperar, todas las conexiones
//! que cada escucha tiene ya en cola y dice cuántas aceptó cada una (en el
//! mismo orden). Las conexiones aceptadas se cierran enseguida. Un error que
//! no sea «no hay más» (`WouldBlock`) se devuelve.

use std::io;
use std::net::{SocketAddr, TcpListener};

use socket2::{Domain, Protocol, Socket, Type};

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
        socket.bind(&direccion.into())?;
        socket.listen(1024)?;
        let escucha: TcpListener = socket.into();
        direccion = escucha.local_addr()?;
        v.push(escucha);
    }
    Ok(v)
}

/// Cuántas conexiones en cola aceptó cada escucha, sin esperar.
pub fn acepta_pendientes(escuchas: &[TcpListener]) -> io::Result<Vec<usize>> {
    let mut cuentas = Vec::with_capacity(escuchas.len());
    for escucha in escuchas {
        let mut n = 0;
        loop {
            match escucha.accept() {
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
