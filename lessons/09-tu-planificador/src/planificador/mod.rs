//! El ejecutor de enseñanza del capítulo, en sus dos versiones. Estos
//! archivos son copias exactas de los de `solutions/09-tu-planificador/src`
//! (la prueba `mismo_codigo` de la lección lo comprueba): lo que mides con
//! `banco` es lo mismo que completas en los ejercicios.

pub mod azar;
pub mod bloqueo;
pub mod ejecutor;
pub mod manija;
pub mod robo;
pub mod tarea;
pub mod una_cola;

pub mod roba;
pub mod siguiente;
pub mod equidad;
pub mod aparca;

pub use ejecutor::Ejecutor;
pub use robo::Robo;
pub use tarea::ceder;
pub use una_cola::UnaCola;
