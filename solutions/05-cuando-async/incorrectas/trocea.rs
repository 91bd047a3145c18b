//! Respuesta incorrecta plausible: cede el control una vez, al principio, y
//! luego hace todo el cálculo de un tirón.

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
    tokio::task::yield_now().await;
    (0..hasta).filter(|&n| es_primo(n)).count() as u64
}
