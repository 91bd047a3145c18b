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
    // SAFETY: CPU_ISSET solo lee, con índices por debajo de CPU_SETSIZE.
    (0..libc::CPU_SETSIZE as usize).filter(|&c| unsafe { libc::CPU_ISSET(c, mascara) }).collect()
}

/// Una máscara con solo `nucleo`.
#[cfg(target_os = "linux")]
pub fn mascara_de(nucleo: usize) -> io::Result<libc::cpu_set_t> {
    if nucleo >= libc::CPU_SETSIZE as usize {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("el núcleo {nucleo} no cabe en la máscara")));
    }
    // SAFETY: una máscara a ceros es válida.
    let mut mascara: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: `nucleo` < CPU_SETSIZE.
    unsafe { libc::CPU_SET(nucleo, &mut mascara) };
    Ok(mascara)
}

/// Los núcleos en los que puede correr este hilo.
#[cfg(target_os = "linux")]
pub fn permitidos() -> io::Result<Vec<usize>> {
    // SAFETY: una máscara a ceros es válida.
    let mut mascara: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: pid 0 = este hilo; la máscara es nuestra y del tamaño indicado.
    if unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut mascara) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(nucleos_de(&mascara))
}

/// Fija este hilo, y solo este, a `nucleo`.
#[cfg(target_os = "linux")]
pub fn fija(nucleo: usize) -> io::Result<()> {
    let mascara = mascara_de(nucleo)?;
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

/// `n` hilos, cada uno fijado a uno de `nucleos`, por turnos.
pub fn lanza_fijados_en<T, F>(nucleos: &[usize], n: usize, f: F) -> io::Result<Vec<JoinHandle<io::Result<T>>>>
where
    T: Send + 'static,
    F: Fn(usize, usize) -> T + Send + Sync + 'static,
{
    if nucleos.is_empty() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "sin núcleos a los que fijar los hilos"));
    }
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

/// `n` hilos, cada uno fijado a un núcleo permitido, por turnos.
pub fn lanza_fijados<T, F>(n: usize, f: F) -> io::Result<Vec<JoinHandle<io::Result<T>>>>
where
    T: Send + 'static,
    F: Fn(usize, usize) -> T + Send + Sync + 'static,
{
    lanza_fijados_en(&permitidos()?, n, f)
}
