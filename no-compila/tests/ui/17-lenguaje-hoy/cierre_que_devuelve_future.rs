// Antes de los cierres async: un cierre que devuelve un future no puede
// devolver uno que tome prestado su argumento, porque `Fut` es un solo tipo
// para todas las duraciones del préstamo. `AsyncFn(&String) -> usize` sí puede.
use std::future::Future;

async fn aplica<F, Fut>(f: F) -> usize
where
    F: Fn(&String) -> Fut,
    Fut: Future<Output = usize>,
{
    let nombre = String::from("tokio");
    f(&nombre).await
}

fn main() {
    let _ = aplica(|texto: &String| async move { texto.len() });
}
