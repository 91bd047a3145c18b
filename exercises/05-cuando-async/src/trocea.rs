//! Ejercicio 3: trocea un bucle de CPU y cede el control entre trozos.
//!
//! A veces el cálculo es moderado y no compensa mandarlo a otro hilo. Entonces
//! se puede hacer en la tarea, pero a trozos: cada [`TROZO`] números, la tarea
//! cede el control (`tokio::task::yield_now().await`) y el hilo trabajador
//! puede sondear otras tareas antes de seguir con esta.
//!
//! Tu trabajo es `cuenta_si(hasta, cumple)`: cuenta los números de
//! `0..hasta` (sin `hasta`) para los que `cumple(n)` da `true`, llamando a
//! `cumple` una vez por número, y cede el control después de cada trozo de
//! [`TROZO`] números como mucho: nunca revisa `TROZO + 1` números seguidos
//! sin ceder. `cuenta_primos(hasta)` ya está hecha: es `cuenta_si` con
//! `es_primo`. Las pruebas le pasan a `cuenta_si` su propio `cumple`, que
//! anota cada número que revisas: así cuentan cuántos revisas entre una
//! cesión y la siguiente, también cuando `hasta` está justo en el borde de
//! un trozo, uno por debajo o uno por encima.

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

/// Cuenta los números de `0..hasta` para los que `cumple` dice que sí,
/// llamándola una vez por número, y cede el control después de cada trozo
/// de [`TROZO`] números como mucho.
pub async fn cuenta_si(hasta: u64, mut cumple: impl FnMut(u64) -> bool) -> u64 {
    // Esta versión da el número correcto, pero no cede nunca: mientras
    // cuenta, ninguna otra tarea de su hilo avanza.
    (0..hasta).filter(|&n| cumple(n)).count() as u64
}

/// Cuenta los primos de `0..hasta`, cediendo el control cada [`TROZO`] números.
pub async fn cuenta_primos(hasta: u64) -> u64 {
    cuenta_si(hasta, es_primo).await
}
