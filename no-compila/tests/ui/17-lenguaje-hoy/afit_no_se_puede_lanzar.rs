// Un `async fn` en un trait devuelve un future de tipo anónimo, y quien llama
// no tiene forma de exigir que sea `Send`: `A: Send + Sync` habla del
// almacén, no del future de `lee`. `tokio::spawn` lo necesita Send.
use std::sync::Arc;

#[allow(async_fn_in_trait)]
pub trait Almacen {
    async fn lee(&self, clave: u32) -> u64;
}

pub fn lanza<A: Almacen + Send + Sync + 'static>(almacen: Arc<A>) {
    tokio::spawn(async move { almacen.lee(7).await });
}

fn main() {}
