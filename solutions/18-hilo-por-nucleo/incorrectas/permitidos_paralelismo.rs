// INCORRECTA: `permitidos` devuelve `0..available_parallelism()`: cuántos
// núcleos hay, pero no cuáles. Si este hilo solo puede usar el núcleo 1,
// dice «el 0».
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
#[cfg(target_os = "linux")]
pub fn permitidos() -> io::Result<Vec<usize>> {
    Ok((0..std::thread::available_parallelism()?.get()).collect())
}

/// Fija este hilo, y solo este, a `nucleo`.
#[cfg(target_os = "linux")]
pub fn fija(nucleo: usize) -> io::Result<()> {
    if nucleo >= libc::CPU_SETSIZE as usize {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("no existe el núcleo {nucleo}")));
    }
    // SAFETY: una máscara a ceros es válida.
    let mut mascara: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: `nucleo` < CPU_SETSIZE.
    unsafe { libc::CPU_SET(nucleo, &mut mascara) };
    // SAFETY: pid 0 = el hilo que llama (no el proceso); la máscara vive durante la llamada.
    if unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mascara) } != 0 {
        return Err(io::Error::last_os_error()); // EINVAL llega como InvalidInput
    }
    Ok(())
}

#[cfg(not(target_os = "linux"))]
pub fn permitidos() -> io::Result<Vec<usize>> {
    Err(io::Error::new(io::ErrorKind::Unsupported, "solo en Linux"))
}

#[cfg(not(target_os = "linux"))]
pub fn fija(_nucleo: usize) -> io::Result<()> {
    Err(io::Error::new(io::ErrorKind::Unsupported, "solo en Linux"))
}

/// `n` hilos, cada uno fijado a un núcleo permitido, por turnos.
pub fn lanza_fijados<T, F>(n: usize, f: F) -> io::Result<Vec<JoinHandle<io::Result<T>>>>
where
    T: Send + 'static,
    F: Fn(usize, usize) -> T + Send + Sync + 'static,
{
    let nucleos = permitidos()?;
    let f = std::sync::Arc::new(f);
    Ok((0..n)
        .map(|i| {
            let nucleo = nucleos[i % nucleos.len()];
            let f = f.clone();
            std::thread::spawn(move || {
                fija(nucleo)?; // dentro del hilo nuevo: el que llama no cambia
                Ok(f(i, nucleo))
            })
        })
        .collect())
}
