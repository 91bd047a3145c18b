//! Las pruebas de la herramienta del curso, en un solo binario: así cargo
//! las ejecuta a la vez (dos en paralelo) en lugar de una detrás de otra, y
//! las que esperan (el libro, una copia del curso) se solapan con las que
//! compilan. Cada módulo es lo que antes era un archivo de `tests/`.
//!
//! libtest empieza las pruebas por orden alfabético: las de `cargo_curso`,
//! que trabajan sobre copias del curso y son las más largas, van primero
//! para que las cortas llenen los huecos mientras tanto.

mod cargo_curso;
mod ejercicios;
mod libro;
mod mediciones;
mod referencias;
mod trazas;
