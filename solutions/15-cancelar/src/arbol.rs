//! Ejercicio 3: propagar la cancelación a un árbol de tareas.
//!
//! `ejecuta(nodo, token, registro)` lanza el nodo como una tarea y cada uno
//! de sus hijos como otra tarea, recursivamente: un árbol de tareas. Cada
//! nodo:
//!
//! 1. avisa al registro de que empieza, con `registro.empieza(nombre, token)`,
//!    pasándole su propio token;
//! 2. lanza a sus hijos, cada uno con un token **hijo** del suyo
//!    (`token.child_token()`): si cancelan el suyo, se cancela toda su rama,
//!    pero si cancelan el de un hijo, el padre y los hermanos siguen;
//! 3. espera, dormido, a que cancelen su token;
//! 4. espera a que terminen todos sus hijos;
//! 5. avisa al registro de que termina, con `registro.termina(nombre)`.
//!
//! `ejecuta` vuelve cuando el nodo raíz ha terminado, es decir, cuando todo
//! el árbol ha terminado, y en orden: cada hijo antes que su padre.
//!
//! Si la tarea de un nodo entra en pánico, el pánico sube: su padre, al
//! esperar a sus hijos (paso 4), lo vuelve a lanzar con
//! `std::panic::resume_unwind`, y así hasta la raíz, de modo que `ejecuta`
//! entra en pánico con la misma carga (el mismo mensaje). Un pánico no se
//! pierde por el camino ni se convierte en un final normal.

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
    if let Err(error) = raiz.await
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
