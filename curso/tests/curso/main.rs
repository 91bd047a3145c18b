//! Las pruebas de la herramienta del curso, en un solo binario: así cargo
//! las ejecuta a la vez (dos en paralelo) en lugar de una detrás de otra, y
//! las que esperan (el libro, una copia del curso) se solapan con las que
//! compilan. Cada módulo es lo que antes era un archivo de `tests/`.

mod ejercicios;
mod libro;
mod mediciones;
mod orden;
mod referencias;
