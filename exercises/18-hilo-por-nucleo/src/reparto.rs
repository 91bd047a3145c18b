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

// Te hará falta: use socket2::{Domain, Protocol, Socket, Type};

/// `n` escuchas no bloqueantes en el mismo puerto, con `SO_REUSEPORT`.
pub fn escuchas(n: usize, direccion: SocketAddr) -> io::Result<Vec<TcpListener>> {
    let _ = (n, direccion);
    todo!("un socket2::Socket por escucha: set_reuse_port(true) antes de bind, no bloqueante, listen")
}

/// Cuántas conexiones en cola aceptó cada escucha, sin esperar.
pub fn acepta_pendientes(escuchas: &[TcpListener]) -> io::Result<Vec<usize>> {
    let _ = escuchas;
    todo!("acepta en bucle hasta WouldBlock, escucha por escucha")
}
