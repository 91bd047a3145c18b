//! El eco sobre `io_uring`, sin *runtime*: un bucle por hilo con su anillo.
//! Se ve entero el modelo de finalización: cada operación se encola en la
//! cola de envío (SQ) con el búfer en el que el kernel va a escribir, y su
//! resultado vuelve por la cola de finalización (CQ) con el número que le
//! pusimos (`user_data`). El búfer de cada conexión vive en su ranura de
//! `conexiones`, no en la pila ni en un *future*: nadie puede soltarlo
//! mientras el kernel lo usa, porque solo se suelta al recibir el resultado.
//! Y si el bucle acaba con un error, antes de soltar los búferes se cancelan
//! todas las operaciones en vuelo y se espera cada resultado.

use std::io;
use std::net::TcpListener;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

use io_uring::{IoUring, opcode, types};

const ACEPTAR: u64 = u64::MAX;
const CANCELAR: u64 = u64::MAX - 1;

/// Una conexión y su búfer. Mientras hay una operación en vuelo, el kernel
/// escribe o lee en `bufer`: por eso vive aquí hasta su resultado.
struct Conexion {
    socket: OwnedFd,
    bufer: Vec<u8>,
    /// Lo que queda por enviar: `bufer[enviado..pendiente]`.
    enviado: usize,
    pendiente: usize,
}

/// Lo que el bucle guarda entre vuelta y vuelta: las conexiones (con sus
/// búferes) y cuántas operaciones tiene el kernel en vuelo.
#[derive(Default)]
struct Estado {
    conexiones: Vec<Option<Conexion>>,
    en_vuelo: usize,
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
fn encola_recibir(anillo: &mut IoUring, en_vuelo: &mut usize, ranura: usize, c: &mut Conexion) -> io::Result<()> {
    let sqe = opcode::Recv::new(types::Fd(c.socket.as_raw_fd()), c.bufer.as_mut_ptr(), c.bufer.len() as u32)
        .build()
        .user_data(dato(ranura, false));
    // SAFETY: el búfer es de la ranura `ranura`, que no se suelta ni se toca
    // hasta que llegue el resultado de esta operación.
    unsafe { encola(anillo, en_vuelo, &sqe) }
}
// ANCHOR_END: recibir

fn encola_enviar(anillo: &mut IoUring, en_vuelo: &mut usize, ranura: usize, c: &mut Conexion) -> io::Result<()> {
    let trozo = &c.bufer[c.enviado..c.pendiente];
    let sqe = opcode::Send::new(types::Fd(c.socket.as_raw_fd()), trozo.as_ptr(), trozo.len() as u32)
        .build()
        .user_data(dato(ranura, true));
    // SAFETY: como en `encola_recibir`.
    unsafe { encola(anillo, en_vuelo, &sqe) }
}

/// Encola una entrada y la cuenta como en vuelo.
///
/// # Safety
/// Lo que `sqe` apunta debe seguir vivo hasta que llegue su resultado.
unsafe fn encola(anillo: &mut IoUring, en_vuelo: &mut usize, sqe: &io_uring::squeue::Entry) -> io::Result<()> {
    // SAFETY: lo garantiza quien llama.
    if unsafe { anillo.submission().push(sqe) }.is_err() {
        anillo.submit()?; // la cola de envío estaba llena: vaciarla al kernel
        // SAFETY: lo garantiza quien llama.
        unsafe { anillo.submission().push(sqe) }.map_err(|_| io::Error::other("la cola de envío sigue llena"))?;
    }
    *en_vuelo += 1;
    Ok(())
}

/// El bucle de un hilo: acepta conexiones de `escucha` y devuelve lo que
/// llega por cada una. No termina salvo por un error: la lección acaba el proceso.
pub fn eco_con_io_uring(mut anillo: IoUring, escucha: TcpListener) -> io::Result<()> {
    let mut estado = Estado::default();
    // ANCHOR: error
    let resultado = bucle(&mut anillo, &escucha, &mut estado);
    if resultado.is_err() && cancela_y_espera(&mut anillo, &mut estado.en_vuelo).is_err() {
        // El kernel podría seguir escribiendo en los búferes: mejor perderlos
        // (no se liberan nunca) que liberar memoria que todavía usa.
        std::mem::forget(estado.conexiones);
    }
    // Aquí ya no queda nada en vuelo: `estado` puede soltar sus búferes antes que el anillo.
    resultado
    // ANCHOR_END: error
}

fn bucle(anillo: &mut IoUring, escucha: &TcpListener, estado: &mut Estado) -> io::Result<()> {
    escucha.set_nonblocking(false)?; // el anillo espera por nosotros
    let fd_escucha = types::Fd(escucha.as_raw_fd());
    let aceptar =
        opcode::Accept::new(fd_escucha, std::ptr::null_mut(), std::ptr::null_mut()).build().user_data(ACEPTAR);
    let Estado { conexiones, en_vuelo } = estado;
    // SAFETY: Accept no apunta a memoria nuestra.
    unsafe { encola(anillo, en_vuelo, &aceptar)? };
    let mut resultados = Vec::new();
    loop {
        // Una llamada al sistema: entrega todo lo encolado y espera al menos un resultado.
        anillo.submit_and_wait(1)?;
        resultados.extend(anillo.completion().map(|cqe| (cqe.user_data(), cqe.result())));
        *en_vuelo -= resultados.len();
        for (dato_op, res) in resultados.drain(..) {
            if dato_op == ACEPTAR {
                if res >= 0 {
                    // SAFETY: el kernel nos da un descriptor nuevo, solo nuestro.
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
                    encola_recibir(anillo, en_vuelo, ranura, c)?;
                }
                // SAFETY: como arriba.
                unsafe { encola(anillo, en_vuelo, &aceptar)? };
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
                    encola_enviar(anillo, en_vuelo, ranura, c)?;
                }
                (true, n) => {
                    c.enviado += n as usize;
                    if c.enviado < c.pendiente {
                        encola_enviar(anillo, en_vuelo, ranura, c)?; // envío parcial: el resto
                    } else {
                        encola_recibir(anillo, en_vuelo, ranura, c)?;
                    }
                }
            }
        }
    }
}

/// Pide al kernel que cancele todas las operaciones en vuelo y espera el
/// resultado de cada una: solo cuando `en_vuelo` llega a 0 vuelven a ser
/// nuestros todos los búferes. Un error aquí (un kernel anterior a 5.19 no
/// sabe cancelar «cualquiera») deja operaciones en vuelo.
fn cancela_y_espera(anillo: &mut IoUring, en_vuelo: &mut usize) -> io::Result<()> {
    let cancelar = opcode::AsyncCancel2::new(types::CancelBuilder::any()).build().user_data(CANCELAR);
    // SAFETY: la cancelación no apunta a memoria nuestra.
    if unsafe { anillo.submission().push(&cancelar) }.is_err() {
        anillo.submit()?;
        // SAFETY: como arriba.
        unsafe { anillo.submission().push(&cancelar) }.map_err(|_| io::Error::other("la cola de envío sigue llena"))?;
    }
    let mut cancelada = false;
    while *en_vuelo > 0 || !cancelada {
        anillo.submit_and_wait(1)?;
        let resultados: Vec<(u64, i32)> = anillo.completion().map(|cqe| (cqe.user_data(), cqe.result())).collect();
        for (dato_op, res) in resultados {
            if dato_op == CANCELAR {
                cancelada = true;
                // ENOENT: no quedaba nada que cancelar. Otro error: no se pudo.
                if res < 0 && res != -libc::ENOENT {
                    return Err(io::Error::from_raw_os_error(-res));
                }
            } else {
                *en_vuelo -= 1;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod pruebas {
    use super::*;
    use std::net::{TcpListener, TcpStream};

    /// Una lectura en vuelo sobre un *socket* sin datos: tras cancelar y
    /// esperar, no queda nada en vuelo y el búfer vuelve a ser nuestro.
    #[test]
    fn cancelar_y_esperar_devuelve_los_bufers() {
        let Ok(mut anillo) = IoUring::new(8) else { return }; // sin io_uring aquí: nada que probar
        let escucha = TcpListener::bind("127.0.0.1:0").unwrap();
        let _cliente = TcpStream::connect(escucha.local_addr().unwrap()).unwrap();
        let (servidor, _) = escucha.accept().unwrap();
        let mut c = Conexion { socket: servidor.into(), bufer: vec![0; 64], enviado: 0, pendiente: 0 };
        let mut en_vuelo = 0;
        encola_recibir(&mut anillo, &mut en_vuelo, 0, &mut c).unwrap();
        anillo.submit().unwrap();
        assert_eq!(en_vuelo, 1);
        match cancela_y_espera(&mut anillo, &mut en_vuelo) {
            Ok(()) => assert_eq!(en_vuelo, 0, "tras cancelar y esperar no queda nada en vuelo"),
            // Un kernel sin cancelación de «cualquiera»: el búfer se filtra, como en la lección.
            Err(e) => {
                assert_eq!(e.raw_os_error(), Some(libc::EINVAL), "{e}");
                std::mem::forget(c);
                return;
            }
        }
        drop(c); // ahora sí: el kernel ya no escribe en él
    }
}
