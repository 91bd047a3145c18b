//! Respuesta incorrecta plausible: cede cada TROZO *primos* encontrados, no
//! cada TROZO números revisados. Entre 0 y 20 000 hay 2262 primos: cede dos
//! veces en vez de veinte, y cada vez pasa más tiempo sin ceder.

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
    for n in 0..hasta {
        if es_primo(n) {
            primos += 1;
            if primos % TROZO == 0 {
                tokio::task::yield_now().await;
            }
        }
    }
    primos
}
