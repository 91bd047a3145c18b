// Un cierre async se recibe con `AsyncFn`, pero en Rust estable no hay forma
// de pedir que el future que devuelve sea `Send`: `F: Send + Sync` habla del
// cierre, no de su future (`CallRefFuture`), y `tokio::spawn` lo necesita Send.
pub fn lanza<F>(f: F)
where
    F: AsyncFn() -> u64 + Send + Sync + 'static,
{
    tokio::spawn(async move { f().await });
}

fn main() {}
