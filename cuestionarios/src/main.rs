//! Los programas de los cuestionarios del libro, en un solo binario.
//!
//! Cada pregunta «¿qué imprime?», «¿compila?» o «¿termina?» de
//! `book/cuestionarios/NN-tema.toml` nombra un programa. Si compila, está en
//! `cuestionarios/programas/NN-tema/ARCHIVO.rs`, tal como lo ve quien lee, y
//! este binario lo ejecuta por su nombre:
//!
//! ```text
//! cargo run -p cuestionarios -- 06-hilos-verdes/join_no_lanza
//! cargo run -p cuestionarios -- --lista
//! ```
//!
//! Si no debe compilar, es un caso de `no-compila/tests/ui/NN-tema/` con su
//! error fijado. La prueba (`tests/cuestionarios.rs`) ejecuta cada programa
//! y falla si la respuesta fijada en el cuestionario no es lo que el
//! programa hace de verdad.

use std::process::ExitCode;

include!(concat!(env!("OUT_DIR"), "/programas.rs"));

fn main() -> ExitCode {
    let argumentos: Vec<String> = std::env::args().skip(1).collect();
    match argumentos.as_slice() {
        [opcion] if opcion == "--lista" => {
            for (nombre, _) in PROGRAMAS {
                println!("{nombre}");
            }
            ExitCode::SUCCESS
        }
        [nombre] => match PROGRAMAS.iter().find(|(n, _)| n == nombre) {
            Some((_, programa)) => {
                programa();
                ExitCode::SUCCESS
            }
            None => {
                eprintln!(
                    "error: no hay ningún programa de los cuestionarios llamado «{nombre}»; \
                     `cargo run -p cuestionarios -- --lista` los dice todos"
                );
                ExitCode::from(2)
            }
        },
        _ => {
            eprintln!(
                "uso: cargo run -p cuestionarios -- NOMBRE  (por ejemplo, 06-hilos-verdes/join_no_lanza)\n     \
                 cargo run -p cuestionarios -- --lista   (todos los programas)"
            );
            ExitCode::from(2)
        }
    }
}
