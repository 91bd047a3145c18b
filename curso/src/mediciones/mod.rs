//! El registro de mediciones: cada número con unidad de la prosa del libro
//! está en el registro de su capítulo (`lessons/NN-tema/mediciones.toml`),
//! que dice qué es y cómo se sabe:
//!
//! - `medido`: lo mide una lección; `orden` es la orden que lo mide y
//!   `linea` (opcional), un trozo de la línea de su salida que lo da;
//! - `citado`: viene de una entrada de la página «Referencias»
//!   (`referencia`: su identificador, `tokio-cola-local` para el ancla
//!   `ref-tokio-cola-local` de `book/referencias.md`);
//! - `parametro`: una entrada del experimento o un número de ejemplo
//!   (`donde`: el archivo que lo fija);
//! - `calculo`: una cuenta con otros valores del registro (`cuenta`).
//!
//! Las piezas:
//!
//! - [`registro`]: leer los registros ([`Dato`], con un [`Como`] por tipo)
//!   y las máquinas; [`lectura`] explica por qué no se lee un dato;
//! - [`valores`]: los números con unidad de la prosa y sus cuentas;
//! - [`comprobar()`]: la prosa contra los registros (falla si la prosa cita
//!   un número que el registro no tiene, o si el registro guarda uno que la
//!   prosa ya no cita);
//! - [`medir`] ([`ejecutar`]): ejecuta cada orden de medida y guarda su
//!   salida y un resumen en JSON; [`coma`] rechaza la que escribe una
//!   cantidad con punto decimal;
//! - [`pagina()`]: la página «Mediciones» del libro;
//! - [`graficas`]: vuelve a dibujar las gráficas;
//! - [`trazas`]: las trazas grabadas de Tokio (`[[traza]]`), con la máquina,
//!   la versión y la orden que las grabó, y su prueba de coherencia.

pub mod coma;
pub mod comprobar;
pub mod ejecutar;
pub mod graficas;
pub mod lectura;
pub mod pagina;
pub mod registro;
pub mod trazas;
pub mod valores;

pub use comprobar::{comprobar, paquete_de};
pub use ejecutar::{Lectura, OrdenEjecutada, Resultados, medir, orden_ejecutable};
pub use graficas::{dibujar, programas_de_graficas};
pub use pagina::pagina;
pub use registro::{
    Como, Dato, DatoIlegible, DatoMalFormado, MAQUINAS, Maquina, Razon, RegistroDelCapitulo, cargar, maquinas,
};
pub use valores::{cuantas_veces, en_unidad_base, unificar_espacios, valores_de_la_prosa};
