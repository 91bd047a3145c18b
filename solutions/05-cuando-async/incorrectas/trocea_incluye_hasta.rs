//! Respuesta incorrecta plausible: trozos con rango cerrado, `inicio..=fin`,
//! con `fin` como último número del trozo. Cede bien, pero el último trozo
//! llega hasta `hasta` incluido: si `hasta` es primo, lo cuenta de más.

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
    let mut primos = 0;
    let mut inicio = 0;
    while inicio < hasta {
        let fin = (inicio + TROZO - 1).min(hasta);
        primos += (inicio..=fin).filter(|&n| es_primo(n)).count() as u64;
        inicio = fin + 1;
        tokio::task::yield_now().await;
    }
    primos
}
