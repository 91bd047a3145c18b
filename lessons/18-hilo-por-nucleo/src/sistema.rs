//! Lo que la lección le pide al sistema operativo: saber si hay `io_uring`,
//! fijar un hilo a un núcleo y abrir varios *sockets* de escucha en el mismo
//! puerto (`SO_REUSEPORT`).

use std::io;
use std::net::{SocketAddr, TcpListener};

use socket2::{Domain, Protocol, Socket, Type};

// ANCHOR: sonda
/// ¿Deja el kernel crear un anillo de `io_uring`? Lo pregunta de la forma más
/// directa: la llamada `io_uring_setup` con un anillo de una entrada, que se
/// cierra enseguida. En un contenedor es normal que falle con `EPERM` o
/// `ENOSYS` (el filtro seccomp la bloquea), y en Linux 6.6 o posterior
/// `/proc/sys/kernel/io_uring_disabled` puede apagarla para todos.
#[cfg(target_os = "linux")]
pub fn io_uring_disponible() -> io::Result<()> {
    // `struct io_uring_params` mide 120 bytes; el kernel exige ceros en lo reservado.
    let mut parametros = [0u64; 16];
    // SAFETY: `parametros` es memoria válida, escribible y del tamaño que el kernel lee.
    let fd = unsafe { libc::syscall(libc::SYS_io_uring_setup, 1u32, parametros.as_mut_ptr()) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` es un descriptor que acabamos de recibir y nadie más tiene.
    unsafe { libc::close(fd as libc::c_int) };
    Ok(())
}
// ANCHOR_END: sonda

#[cfg(not(target_os = "linux"))]
pub fn io_uring_disponible() -> io::Result<()> {
    Err(io::Error::new(io::ErrorKind::Unsupported, "io_uring solo existe en Linux"))
}

/// Explica en español por qué no hay `io_uring`.
pub fn por_que_no_hay_io_uring(error: &io::Error) -> String {
    match error.raw_os_error() {
        Some(libc::EPERM) => format!("el sistema no lo permite (EPERM: {error}); en un contenedor suele ser seccomp"),
        Some(libc::ENOSYS) => format!("la llamada no existe o está filtrada (ENOSYS: {error})"),
        _ => format!("{error}"),
    }
}

/// Los núcleos en los que este hilo puede correr (su máscara de afinidad).
#[cfg(target_os = "linux")]
pub fn nucleos_permitidos() -> io::Result<Vec<usize>> {
    // SAFETY: cpu_set_t es una máscara de bits; todo ceros es un valor válido.
    let mut mascara: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: pid 0 es el hilo que llama; la máscara es nuestra y del tamaño indicado.
    let r = unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut mascara) };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: CPU_ISSET solo lee la máscara, y cada índice está por debajo de CPU_SETSIZE.
    Ok((0..libc::CPU_SETSIZE as usize).filter(|&c| unsafe { libc::CPU_ISSET(c, &mascara) }).collect())
}

#[cfg(not(target_os = "linux"))]
pub fn nucleos_permitidos() -> io::Result<Vec<usize>> {
    Ok((0..std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)).collect())
}

// ANCHOR: fija
/// Fija el hilo que llama al núcleo `nucleo`: a partir de ahora el
/// planificador del sistema solo lo ejecuta ahí. El pid 0 significa «este
/// hilo», no el proceso entero.
#[cfg(target_os = "linux")]
pub fn fija_hilo_a(nucleo: usize) -> io::Result<()> {
    if nucleo >= libc::CPU_SETSIZE as usize {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("no existe el núcleo {nucleo}")));
    }
    // SAFETY: máscara a ceros, válida.
    let mut mascara: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: `nucleo` < CPU_SETSIZE, comprobado arriba.
    unsafe { libc::CPU_SET(nucleo, &mut mascara) };
    // SAFETY: pid 0 = este hilo; la máscara vive durante la llamada.
    let r = unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mascara) };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}
// ANCHOR_END: fija

#[cfg(not(target_os = "linux"))]
pub fn fija_hilo_a(_nucleo: usize) -> io::Result<()> {
    Err(io::Error::new(io::ErrorKind::Unsupported, "fijar hilos a núcleos, aquí, solo en Linux"))
}

/// Cuántas veces ha cambiado de núcleo el hilo que llama desde que nació:
/// el campo `se.nr_migrations` de `/proc/thread-self/sched`. `None` fuera de
/// Linux o si el kernel no publica ese archivo.
pub fn migraciones_del_hilo() -> Option<u64> {
    let texto = std::fs::read_to_string("/proc/thread-self/sched").ok()?;
    let linea = texto.lines().find(|l| l.trim_start().starts_with("se.nr_migrations"))?;
    linea.rsplit(':').next()?.trim().parse().ok()
}

// ANCHOR: reuseport
/// `n` *sockets* de escucha en el mismo puerto de `direccion`, cada uno con
/// `SO_REUSEPORT`. Con el puerto 0, el primero elige uno libre y los demás
/// se unen a él. El kernel reparte cada conexión nueva a uno de ellos (por
/// un hash de las direcciones y los puertos de los dos extremos), así que
/// cada hilo acepta las suyas sin compartir nada con los otros.
pub fn escuchas_compartidas(n: usize, direccion: SocketAddr) -> io::Result<Vec<TcpListener>> {
    let mut escuchas = Vec::with_capacity(n);
    let mut direccion = direccion;
    for _ in 0..n {
        let socket = Socket::new(Domain::for_address(direccion), Type::STREAM, Some(Protocol::TCP))?;
        socket.set_reuse_port(true)?; // antes de bind: si no, el segundo bind falla
        socket.set_nonblocking(true)?;
        socket.bind(&direccion.into())?;
        socket.listen(1024)?;
        let escucha: TcpListener = socket.into();
        direccion = escucha.local_addr()?; // los siguientes, al mismo puerto
        escuchas.push(escucha);
    }
    Ok(escuchas)
}
// ANCHOR_END: reuseport
