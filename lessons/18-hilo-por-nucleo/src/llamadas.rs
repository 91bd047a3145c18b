//! Recuentos que una máquina compartida sí puede dar: cuántas llamadas al
//! sistema y cuántos cambios de contexto hace un servidor por petición. El
//! tiempo depende de lo que hagan los demás procesos; estos números, mucho
//! menos.
//!
//! - Las llamadas al sistema las cuenta `perf stat` con los puntos de traza
//!   del kernel (`raw_syscalls:sys_enter` y uno por llamada que interesa),
//!   pegado al proceso del servidor con `-p`. Necesita `perf` y permiso para
//!   usar esos puntos de traza (root, o `perf_event_paranoid` bajo); si no
//!   lo hay, la lección lo dice y sigue.
//! - Los cambios de contexto los da `getrusage(RUSAGE_SELF)` dentro del
//!   propio servidor (voluntarios, cuando un hilo se duerme esperando, e
//!   involuntarios, cuando el sistema le quita la CPU), sumados sus hilos.

use std::io;
use std::process::{Child, Command, Stdio};

/// Las llamadas al sistema que se cuentan una a una, además del total. Son
/// las que hace un eco: esperar eventos (`epoll_wait`), leer y escribir en
/// el *socket* (`recvfrom`, `sendto`), entregar y esperar en el anillo
/// (`io_uring_enter`) y despertar a otro hilo (`futex`, y `write` en un
/// `eventfd`).
pub const LLAMADAS: [&str; 6] = ["epoll_wait", "recvfrom", "sendto", "io_uring_enter", "futex", "write"];

/// Lo que se contó de un servidor entre dos marcas.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Recuento {
    /// Todas las llamadas al sistema; `None` si `perf` no pudo contarlas.
    pub llamadas: Option<u64>,
    /// Las de [`LLAMADAS`], en ese orden.
    pub por_llamada: Vec<Option<u64>>,
    /// Cambios de contexto voluntarios e involuntarios del servidor.
    pub voluntarios: u64,
    pub involuntarios: u64,
}

// ANCHOR: rusage
/// Los cambios de contexto de este proceso hasta ahora, todos sus hilos
/// sumados: (voluntarios, involuntarios).
#[cfg(unix)]
pub fn cambios_de_contexto() -> (u64, u64) {
    // SAFETY: `rusage` es una estructura de enteros; todo ceros es válido.
    let mut uso: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `uso` es nuestro y del tamaño que espera la llamada.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut uso) } != 0 {
        return (0, 0);
    }
    (uso.ru_nvcsw as u64, uso.ru_nivcsw as u64)
}
// ANCHOR_END: rusage

#[cfg(not(unix))]
pub fn cambios_de_contexto() -> (u64, u64) {
    (0, 0)
}

/// Los eventos que se piden a `perf stat`.
pub fn eventos() -> String {
    let mut e = vec!["raw_syscalls:sys_enter".to_string()];
    e.extend(LLAMADAS.iter().map(|l| format!("syscalls:sys_enter_{l}")));
    e.join(",")
}

/// Empieza a contar las llamadas al sistema del proceso `pid` con `perf stat`.
pub fn empieza_perf(pid: u32) -> io::Result<Child> {
    Command::new("perf")
        .args(["stat", "-x", ",", "-e", &eventos(), "-p", &pid.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
}

/// Para `perf` (con SIGINT, como un Ctrl+C, que es cuando escribe sus
/// cuentas) y lee lo que contó: el total y cada llamada de [`LLAMADAS`].
pub fn acaba_perf(perf: Child) -> Result<(u64, Vec<Option<u64>>), String> {
    #[cfg(unix)]
    // SAFETY: `kill` solo manda una señal al proceso `perf` que lanzamos.
    unsafe {
        libc::kill(perf.id() as libc::pid_t, libc::SIGINT)
    };
    let salida = perf.wait_with_output().map_err(|e| format!("perf no terminó: {e}"))?;
    lee_perf(&String::from_utf8_lossy(&salida.stderr))
}

/// Lee la salida CSV de `perf stat -x ,`: una línea por evento, con la
/// cuenta en la primera columna y el nombre del evento en la tercera.
pub fn lee_perf(texto: &str) -> Result<(u64, Vec<Option<u64>>), String> {
    let cuenta = |evento: &str| -> Option<u64> {
        texto.lines().find_map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            (c.len() > 2 && c[2] == evento).then(|| c[0].trim().parse().ok()).flatten()
        })
    };
    let total = cuenta("raw_syscalls:sys_enter").ok_or_else(|| {
        let primera = texto.lines().find(|l| !l.trim().is_empty()).unwrap_or("sin salida");
        format!("perf no dio la cuenta: «{}»", primera.trim())
    })?;
    Ok((total, LLAMADAS.iter().map(|l| cuenta(&format!("syscalls:sys_enter_{l}"))).collect()))
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn lee_la_salida_de_perf() {
        let texto = "\n118,,raw_syscalls:sys_enter,1257182,100.00,,\n5,,syscalls:sys_enter_epoll_wait,1257182,100.00,,\n\
                     <not supported>,,syscalls:sys_enter_io_uring_enter,0,100.00,,\n";
        let (total, por_llamada) = lee_perf(texto).unwrap();
        assert_eq!(total, 118);
        assert_eq!(por_llamada[0], Some(5));
        assert_eq!(por_llamada[3], None);
        assert!(lee_perf("Error: no permission").unwrap_err().contains("no permission"));
    }

    #[cfg(unix)]
    #[test]
    fn los_cambios_de_contexto_no_bajan() {
        let (v0, i0) = cambios_de_contexto();
        std::thread::sleep(std::time::Duration::from_millis(1)); // dormir es un cambio voluntario
        let (v1, i1) = cambios_de_contexto();
        assert!(v1 > v0 && i1 >= i0, "{v0} {v1} {i0} {i1}");
    }
}
