//! Ejercicio 3: fijar cada hilo trabajador a su núcleo.
//!
//! - `permitidos()`: los núcleos en los que puede correr el hilo que llama
//!   (su máscara de afinidad, `sched_getaffinity`), en orden creciente. No
//!   son necesariamente `0..N`: un contenedor puede dejarte los núcleos 2 y 3.
//! - `fija(nucleo)`: fija el hilo que llama, y solo ese, a `nucleo`
//!   (`sched_setaffinity`). Un núcleo que no existe o no se puede usar es un
//!   error de tipo `InvalidInput`, nunca un pánico.
//! - `lanza_fijados(n, f)`: lanza `n` hilos; el hilo `i` se fija al núcleo
//!   `permitidos()[i % permitidos().len()]` (los permitidos del hilo que
//!   llama) y, ya fijado, devuelve `f(i, nucleo)`. Si no pudo fijarse,
//!   devuelve el error sin llamar a `f`. El hilo que llama no cambia de
//!   núcleos permitidos.
//!
//! En sistemas que no son Linux, las tres devuelven un error `Unsupported`.

use std::io;
use std::thread::JoinHandle;

/// Los núcleos en los que puede correr este hilo.
pub fn permitidos() -> io::Result<Vec<usize>> {
    todo!("libc::sched_getaffinity(0, ...) y libc::CPU_ISSET")
}

/// Fija este hilo, y solo este, a `nucleo`.
pub fn fija(nucleo: usize) -> io::Result<()> {
    let _ = nucleo;
    todo!("libc::CPU_SET y libc::sched_setaffinity(0, ...): el pid 0 es este hilo")
}

/// `n` hilos, cada uno fijado a un núcleo permitido, por turnos.
pub fn lanza_fijados<T, F>(n: usize, f: F) -> io::Result<Vec<JoinHandle<io::Result<T>>>>
where
    T: Send + 'static,
    F: Fn(usize, usize) -> T + Send + Sync + 'static,
{
    let _ = (n, f);
    todo!("lee los permitidos aquí; fija cada hilo dentro del hilo, antes de llamar a f")
}
