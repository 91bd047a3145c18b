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

use std::sync::Arc;

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
///
/// Un nodo lanza a sus hijos, que lanzan a los suyos: es recursivo. Un
/// `async fn` no puede lanzarse a sí mismo (su tipo no se puede escribir);
/// escribe una función normal que devuelva
/// `Pin<Box<dyn Future<Output = ()> + Send>>` con `Box::pin(async move { ... })`.
pub async fn ejecuta(nodo: Nodo, token: CancellationToken, registro: Arc<dyn Registro>) {
    let _ = (nodo, token, registro);
    todo!("lanza la raíz como tarea; cada nodo da a sus hijos token.child_token() y espera a que terminen")
}
