//! Ejercicio 2: lee `/proc/self/status`.
//!
//! En Linux, `/proc/self/status` describe el proceso que lo lee, una línea
//! por campo, con el nombre, dos puntos y el valor (tras los dos puntos hay
//! un tabulador y, a veces, espacios):
//!
//! ```text
//! VmSize:   2105412 kB
//! VmRSS:      11840 kB
//! RssAnon:     9020 kB
//! Threads:  1001
//! ```
//!
//! Ojo con dos trampas. El nombre del campo tiene que coincidir entero:
//! `Rss` no es `RssAnon`. Y el «kB» del núcleo son KiB: 1024 bytes, no 1000.

/// Lo que la lección del capítulo lee de `/proc/self/status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Estado {
    /// `VmSize`, en bytes: el espacio de direcciones reservado.
    pub virtual_: u64,
    /// `VmRSS`, en bytes: la memoria física que el proceso tiene ahora.
    pub residente: u64,
    /// `Threads`: hilos vivos (un número, sin unidad).
    pub hilos: u64,
}

/// El valor del campo `nombre`: todo lo que sigue a los primeros dos puntos
/// (aunque lleve otros, como «kworker/0:1H»), sin espacios alrededor
/// («2048 kB», «7»). `None` si no hay ninguna línea con ese nombre exacto.
pub fn campo<'a>(texto: &'a str, nombre: &str) -> Option<&'a str> {
    let _ = (texto, nombre);
    todo!("busca la línea cuyo nombre, antes de ':', es exactamente `nombre`")
}

/// «2048 kB» en bytes (2048 × 1024). `None` si no es un número seguido de
/// « kB».
pub fn en_bytes(valor: &str) -> Option<u64> {
    let _ = valor;
    todo!("separa el número de la unidad; el kB del núcleo son 1024 bytes")
}

/// Lee `VmSize`, `VmRSS` y `Threads`. Si falta alguno o no se entiende, el
/// error dice cuál, en español: «falta el campo Threads».
pub fn lee(texto: &str) -> Result<Estado, String> {
    let _ = texto;
    todo!("usa campo y en_bytes; Threads no lleva unidad")
}

/// Cuánta memoria virtual y residente añadió cada hilo nuevo entre dos
/// fotos: `(virtual, residente)` por hilo, en bytes. `None` si no hay hilos
/// nuevos. Si alguna memoria bajó, esa parte es 0.
pub fn por_hilo(antes: &Estado, despues: &Estado) -> Option<(u64, u64)> {
    let _ = (antes, despues);
    todo!("divide cada diferencia de memoria entre la diferencia de hilos")
}
