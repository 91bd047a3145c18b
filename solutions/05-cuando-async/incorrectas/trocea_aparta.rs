//! Respuesta incorrecta plausible: «lo saco del ejecutor» con
//! `spawn_blocking`. El ejecutor queda libre, pero no es lo que pide el
//! ejercicio: el cálculo tenía que quedarse en la tarea, a trozos, y aquí
//! la tarea no cede nada, se queda esperando a otro hilo.

pub const TROZO: u64 = 1_000;

pub fn es_primo(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    if n.is_multiple_of(2) {
        return n == 2;
    }
    let mut d = 3;
    while d * d <= n {
        if n.is_multiple_of(d) {
            return false;
        }
        d += 2;
    }
    true
}

pub async fn cuenta_primos(hasta: u64) -> u64 {
    tokio::task::spawn_blocking(move || (0..hasta).filter(|&n| es_primo(n)).count() as u64)
        .await
        .expect("el cálculo falló")
}
