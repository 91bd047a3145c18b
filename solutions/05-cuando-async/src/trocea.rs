//! Ejercicio 3 (solución): el bucle cede el control al terminar cada trozo.

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
    let mut cuantos = 0;
    let mut inicio = 0;
    while inicio < hasta {
        let fin = (inicio + TROZO).min(hasta);
        cuantos += (inicio..fin).filter(|&n| cumple(n)).count() as u64;
        inicio = fin;
        // Trozo hecho: que el hilo trabajador atienda a las demás tareas.
        tokio::task::yield_now().await;
    }
    cuantos
}

/// Cuenta los primos de `0..hasta`, cediendo el control cada [`TROZO`] números.
pub async fn cuenta_primos(hasta: u64) -> u64 {
    cuenta_si(hasta, es_primo).await
}
