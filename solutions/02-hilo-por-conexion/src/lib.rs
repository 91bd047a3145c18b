//! Soluciones del capítulo 02, «Un hilo por conexión y su techo».
//!
//! Las pruebas son las mismas que las de `exercises/02-hilo-por-conexion`.
//! `cargo run -p soluciones-02` muestra cada solución en marcha.

pub mod eco;
pub mod estado;
pub mod grupo;

/// Los tipos con los que `grupo.rs` sincroniza sus hilos: los de `std`.
/// `grupo.rs` los toma de aquí (`use super::sync::...`) y no de `std`, para
/// que [`modelo`] pueda compilarlo otra vez con los de shuttle.
pub mod sync {
    pub use std::sync::{Arc, Barrier, Condvar, Mutex, MutexGuard, RwLock, atomic, mpsc};
    pub use std::thread;
}

/// `grupo.rs` otra vez, compilado sobre los tipos de shuttle
/// (`shuttle::sync` y `shuttle::thread`, con la misma interfaz que los de
/// `std`). Con ellos, una prueba ejecuta tu grupo en cientos de órdenes
/// distintos entre sus hilos, elegidos con una semilla fija: siempre los
/// mismos, no los que la suerte trae. Es para las pruebas: el programa usa
/// `crate::grupo`.
#[path = "."]
pub mod modelo {
    /// Los mismos nombres que `crate::sync`, de shuttle.
    pub mod sync {
        pub use shuttle::sync::{Arc, Barrier, Condvar, Mutex, MutexGuard, RwLock, atomic, mpsc};
        pub use shuttle::thread;
    }
    // El mismo archivo que `crate::grupo`, a propósito: compilado sobre otros tipos.
    #[allow(clippy::duplicate_mod)]
    #[path = "grupo.rs"]
    pub mod grupo;
}
