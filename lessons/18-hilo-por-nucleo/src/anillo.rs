//! El eco sobre `io_uring`, sin *runtime*: un bucle por hilo con su anillo.
//! Se ve entero el modelo de finalización: cada operación se encola en la
//! cola de envío (SQ) con el búfer en el que el núcleo va a escribir, y su
//! resultado vuelve por la cola de finalización (CQ) con el número que le
//! pusimos (`user_data`). El búfer de cada conexión vive en su ranura de
//! `conexiones`, no en la pila ni en un *future*: nadie puede soltarlo
//! mientras el núcleo lo usa, porque solo se suelta al recibir el resultado.

use std::io;
use std::net::TcpListener;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

use io_uring::{IoUring, opcode, types};

const ACEPTAR: u64 = u64::MAX;

/// Una conexión y su búfer. Mientras hay una operación en vuelo, el núcleo
/// escribe o lee en `bufer`: por eso vive aquí hasta su resultado.
struct Conexion {
    socket: OwnedFd,
    bufer: Vec<u8>,
    /// Lo que queda por enviar: `bufer[enviado..pendiente]`.
    enviado: usize,
    pendiente: usize,
}

/// Desactiva el algoritmo de Nagle: cada respuesta sale en cuanto se envía,
/// sin esperar al acuse de la anterior.
fn sin_nagle(socket: &OwnedFd) {
    let uno: libc::c_int = 1;
    // SAFETY: `uno` vive durante la llamada y mide lo que se indica.
    unsafe {
        libc::setsockopt(
            socket.as_raw_fd(),
            libc::IPPROTO_TCP,
            libc::TCP_NODELAY,
            (&uno as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
}

/// `user_data` de una operación: la ranura de la conexión y si es un envío.
fn dato(ranura: usize, envio: bool) -> u64 {
    (ranura as u64) << 1 | envio as u64
}

// ANCHOR: recibir
fn encola_recibir(anillo: &mut IoUring, ranura: usize, c: &mut Conexion) -> io::Result<()> {
    let sqe = opcode::Recv::new(types::Fd(c.socket.as_raw_fd()), c.bufer.as_mut_ptr(), c.bufer.len() as u32)
        .build()
        .user_data(dato(ranura, false));
    // SAFETY: el búfer es de la ranura `ranura`, que no se suelta ni se toca
    // hasta que llegue el resultado de esta operación.
    unsafe { encola(anillo, &sqe) }
}
// ANCHOR_END: recibir

fn encola_enviar(anillo: &mut IoUring, ranura: usize, c: &mut Conexion) -> io::Result<()> {
    let trozo = &c.bufer[c.enviado..c.pendiente];
    let sqe = opcode::Send::new(types::Fd(c.socket.as_raw_fd()), trozo.as_ptr(), trozo.len() as u32)
        .build()
        .user_data(dato(ranura, true));
    // SAFETY: como en `encola_recibir`.
    unsafe { encola(anillo, &sqe) }
}

/// # Safety
/// Lo que `sqe` apunta debe seguir vivo hasta que llegue su resultado.
unsafe fn encola(anillo: &mut IoUring, sqe: &io_uring::squeue::Entry) -> io::Result<()> {
    // SAFETY: lo garantiza quien llama.
    if unsafe { anillo.submission().push(sqe) }.is_err() {
        anillo.submit()?; // la cola de envío estaba llena: vaciarla al núcleo
        // SAFETY: lo garantiza quien llama.
        unsafe { anillo.submission().push(sqe) }.map_err(|_| io::Error::other("la cola de envío sigue llena"))?;
    }
    Ok(())
}

/// El bucle de un hilo: acepta conexiones de `escucha` y devuelve lo que
/// llega por cada una. No termina: la lección acaba el proceso.
pub fn eco_con_io_uring(mut anillo: IoUring, escucha: TcpListener) -> io::Result<()> {
    escucha.set_nonblocking(false)?; // el anillo espera por nosotros
    let fd_escucha = types::Fd(escucha.as_raw_fd());
    let aceptar =
        opcode::Accept::new(fd_escucha, std::ptr::null_mut(), std::ptr::null_mut()).build().user_data(ACEPTAR);
    // SAFETY: Accept no apunta a memoria nuestra.
    unsafe { encola(&mut anillo, &aceptar)? };
    let mut conexiones: Vec<Option<Conexion>> = Vec::new();
    let mut resultados = Vec::new();
    loop {
        // Una llamada al sistema: entrega lo encolado y espera al menos un resultado.
        anillo.submit_and_wait(1)?;
        resultados.extend(anillo.completion().map(|cqe| (cqe.user_data(), cqe.result())));
        for (dato_op, res) in resultados.drain(..) {
            if dato_op == ACEPTAR {
                if res >= 0 {
                    // SAFETY: el núcleo nos da un descriptor nuevo, solo nuestro.
                    let socket = unsafe { OwnedFd::from_raw_fd(res) };
                    sin_nagle(&socket); // como `set_nodelay(true)` en las variantes de Tokio
                    let c = Conexion { socket, bufer: vec![0; 4096], enviado: 0, pendiente: 0 };
                    let ranura = match conexiones.iter().position(Option::is_none) {
                        Some(r) => r,
                        None => {
                            conexiones.push(None);
                            conexiones.len() - 1
                        }
                    };
                    let c = conexiones[ranura].insert(c);
                    encola_recibir(&mut anillo, ranura, c)?;
                }
                // SAFETY: como arriba.
                unsafe { encola(&mut anillo, &aceptar)? };
                continue;
            }
            let (ranura, envio) = ((dato_op >> 1) as usize, dato_op & 1 == 1);
            let Some(c) = conexiones[ranura].as_mut() else { continue };
            match (envio, res) {
                // Error o fin de la conexión: ya no hay nada en vuelo, se puede soltar.
                (_, r) if r < 0 => conexiones[ranura] = None,
                (false, 0) => conexiones[ranura] = None,
                (false, n) => {
                    (c.enviado, c.pendiente) = (0, n as usize);
                    encola_enviar(&mut anillo, ranura, c)?;
                }
                (true, n) => {
                    c.enviado += n as usize;
                    if c.enviado < c.pendiente {
                        encola_enviar(&mut anillo, ranura, c)?; // envío parcial: el resto
                    } else {
                        encola_recibir(&mut anillo, ranura, c)?;
                    }
                }
            }
        }
    }
}
