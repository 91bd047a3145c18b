//! Respuesta incorrecta plausible: lanza la raíz y vuelve sin esperarla.
//! Soltar el `JoinHandle` desliga la tarea: el árbol sigue en marcha, pero
//! `ejecuta` vuelve antes de que nadie lo cancele.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

/// Un nodo del árbol: un nombre y sus hijos.
#[derive(Debug, Clone)]
pub struct Nodo {
    pub nombre: String,
    pub hijos: Vec<Nodo>,
}

impl Nodo {
    pub fn new(nombre: &str, hijos: Vec<Nodo>) -> Self {
        Nodo { nombre: nombre.to_string(), hijos }
    }
}

/// Quien quiere saber qué nodos empiezan y terminan.
pub trait Registro: Send + Sync + 'static {
    /// El nodo `nombre` empieza; `token` es el suyo.
    fn empieza(&self, nombre: &str, token: CancellationToken);
    /// El nodo `nombre` y todos sus hijos han terminado.
    fn termina(&self, nombre: &str);
}

/// Lanza el árbol y vuelve cuando ha terminado entero.
pub async fn ejecuta(nodo: Nodo, token: CancellationToken, registro: Arc<dyn Registro>) {
    let raiz = tokio::spawn(nodo_en_marcha(nodo, token, registro));
    drop(raiz);
    if let Err(error) = Ok::<(), tokio::task::JoinError>(())
        && error.is_panic()
    {
        std::panic::resume_unwind(error.into_panic());
    }
}

/// Un nodo en marcha. No es un `async fn` porque se lanza a sí mismo (para
/// sus hijos): el tipo de un `async fn` recursivo no se puede escribir, y
/// una caja con `dyn Future + Send` corta la recursión.
fn nodo_en_marcha(
    nodo: Nodo,
    token: CancellationToken,
    registro: Arc<dyn Registro>,
) -> Pin<Box<dyn Future<Output = ()> + Send>> {
    Box::pin(async move {
        registro.empieza(&nodo.nombre, token.clone());
        let mut hijos = JoinSet::new();
        for hijo in nodo.hijos {
            hijos.spawn(nodo_en_marcha(hijo, token.child_token(), registro.clone()));
        }
        token.cancelled().await;
        while let Some(resultado) = hijos.join_next().await {
            if let Err(error) = resultado
                && error.is_panic()
            {
                std::panic::resume_unwind(error.into_panic());
            }
        }
        registro.termina(&nodo.nombre);
    })
}
