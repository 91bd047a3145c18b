//! Ejercicio 3: trocea un bucle de CPU y cede el control entre trozos.
//!
//! A veces el cálculo es moderado y no compensa mandarlo a otro hilo. Entonces
//! se puede hacer en la tarea, pero a trozos: cada [`TROZO`] números, la tarea
//! cede el control (`tokio::task::yield_now().await`) y el hilo trabajador
//! puede sondear otras tareas antes de seguir con esta.
//!
//! `cuenta_primos(hasta)` cuenta los primos menores que `hasta`, cediendo el
//! control al menos una vez por cada [`TROZO`] números revisados.

/// Cuántos números se revisan, como mucho, entre dos cesiones.
pub const TROZO: u64 = 1_000;

/// ¿Es `n` primo? División por tentativa: lenta a propósito.
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

/// Cuenta los primos de `0..hasta`, cediendo el control cada [`TROZO`] números.
pub async fn cuenta_primos(hasta: u64) -> u64 {
    // Esta versión da el número correcto, pero no cede nunca: mientras
    // cuenta, ninguna otra tarea de su hilo avanza.
    (0..hasta).filter(|&n| es_primo(n)).count() as u64
}
