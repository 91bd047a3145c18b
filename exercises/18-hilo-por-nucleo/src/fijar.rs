//! Ejercicio 3: fijar cada hilo trabajador a su núcleo.
//!
//! - `nucleos_de(&mascara)`: los núcleos que marca una máscara de afinidad
//!   (`libc::cpu_set_t`), en orden creciente. La máscara tiene sitio para
//!   `CPU_SETSIZE` núcleos (1024), no para 64: una máquina grande tiene
//!   núcleos del 64 en adelante.
//! - `mascara_de(nucleo)`: una máscara con solo ese núcleo. Un núcleo que no
//!   cabe en la máscara (`CPU_SETSIZE` o más) es un error `InvalidInput`,
//!   nunca un pánico.
//! - `permitidos()`: los núcleos en los que puede correr el hilo que llama
//!   (su máscara de afinidad, `sched_getaffinity`), en orden creciente. No
//!   son necesariamente `0..N`: un contenedor puede dejarte los núcleos 2 y 3.
//!   Usa `nucleos_de`.
//! - `fija(nucleo)`: fija el hilo que llama, y solo ese, a `nucleo`
//!   (`sched_setaffinity` con la máscara de `mascara_de`). Un núcleo que no
//!   existe o no se puede usar es un error de tipo `InvalidInput`.
//! - `lanza_fijados_en(nucleos, n, f)`: lanza `n` hilos; el hilo `i` se fija
//!   al núcleo `nucleos[i % nucleos.len()]` y, ya fijado, devuelve
//!   `f(i, nucleo)`. Si no pudo fijarse, su hilo devuelve el error sin llamar
//!   a `f` (los demás siguen). Una lista de núcleos vacía es `InvalidInput`.
//!   El hilo que llama no cambia de núcleos permitidos.
//! - `lanza_fijados(n, f)`: lo mismo con los permitidos del hilo que llama.
//!
//! En sistemas que no son Linux, todas devuelven un error `Unsupported` (y
//! `nucleos_de` y `mascara_de` no existen: `cpu_set_t` es de Linux).

use std::io;
use std::thread::JoinHandle;

/// Los núcleos que marca una máscara, en orden creciente.
#[cfg(target_os = "linux")]
pub fn nucleos_de(mascara: &libc::cpu_set_t) -> Vec<usize> {
    let _ = mascara;
    todo!("libc::CPU_ISSET(c, mascara) para cada c de 0 a libc::CPU_SETSIZE")
}

/// Una máscara con solo `nucleo`.
#[cfg(target_os = "linux")]
pub fn mascara_de(nucleo: usize) -> io::Result<libc::cpu_set_t> {
    let _ = nucleo;
    todo!("una máscara a ceros (std::mem::zeroed) y libc::CPU_SET, si el núcleo cabe")
}

/// Los núcleos en los que puede correr este hilo.
pub fn permitidos() -> io::Result<Vec<usize>> {
    todo!("libc::sched_getaffinity(0, ...) y nucleos_de")
}

/// Fija este hilo, y solo este, a `nucleo`.
pub fn fija(nucleo: usize) -> io::Result<()> {
    let _ = nucleo;
    todo!("mascara_de y libc::sched_setaffinity(0, ...): el pid 0 es este hilo")
}

/// `n` hilos, cada uno fijado a uno de `nucleos`, por turnos.
pub fn lanza_fijados_en<T, F>(nucleos: &[usize], n: usize, f: F) -> io::Result<Vec<JoinHandle<io::Result<T>>>>
where
    T: Send + 'static,
    F: Fn(usize, usize) -> T + Send + Sync + 'static,
{
    let _ = (nucleos, n, f);
    todo!("fija cada hilo dentro del hilo, antes de llamar a f")
}

/// `n` hilos, cada uno fijado a un núcleo permitido, por turnos.
pub fn lanza_fijados<T, F>(n: usize, f: F) -> io::Result<Vec<JoinHandle<io::Result<T>>>>
where
    T: Send + 'static,
    F: Fn(usize, usize) -> T + Send + Sync + 'static,
{
    let _ = (n, f);
    todo!("lee los permitidos aquí y usa lanza_fijados_en")
}
