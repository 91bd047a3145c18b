//! `cargo curso`: la herramienta del curso, en español. La línea de órdenes
//! está en `cli/`; todo lo demás, en la biblioteca.

mod cli;

fn main() -> std::process::ExitCode {
    cli::principal()
}
