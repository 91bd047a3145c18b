//! Las tablas que el libro genera a partir de sus fuentes de verdad: la de
//! ejercicios de un capítulo y el horario del curso.

use std::fmt::Write;

use crate::error::Error;
use crate::modelo::{Curso, Grupo};

/// La tabla de ejercicios del capítulo `capitulo` (`06-hilos-verdes`).
pub fn tabla_de_ejercicios(curso: &Curso, capitulo: &str) -> Result<String, Error> {
    let del_capitulo: Vec<_> = curso.ejercicios_de(capitulo).collect();
    let Some(primero) = del_capitulo.first() else {
        return Err(Error::mensaje(format!(
            "book/{capitulo}.md usa {{{{#ejercicios}}}}, pero no tiene ejercicios en la lista"
        )));
    };
    let mut t = String::from("| | ejercicio | qué haces | archivo |\n|---|---|---|---|\n");
    for (i, e) in del_capitulo.iter().enumerate() {
        let compilar = if e.compilar { " (haz que compile)" } else { "" };
        let _ = writeln!(
            t,
            "| {} | `{}` | {}{compilar} | [`{}`](../{}/{}) |",
            i + 1,
            e.nombre,
            e.titulo,
            e.archivo,
            e.carpeta().display(),
            e.archivo
        );
    }
    let _ = write!(
        t,
        "\nPrueba uno con `cargo curso verifica NOMBRE`, todos con `cargo test -p {}`, o deja \
         `cargo curso vigila` abierto mientras trabajas. Si te atascas: `cargo curso pista NOMBRE`.\n",
        primero.paquete()
    );
    Ok(t)
}

/// El horario: un capítulo por fila, con su tiempo y sus comandos.
pub fn tabla_de_horario(curso: &Curso) -> String {
    let mut t = String::from("| capítulo | tiempo | la lección en directo | las soluciones |\n|---|---|---|---|\n");
    let mut total = 0;
    for c in &curso.capitulos {
        // Un capítulo sin tiempo lo señala `cargo test` (revision); aquí, «?».
        total += c.minutos.unwrap_or(0);
        let minutos = c.minutos.map_or("?".to_string(), |m| format!("{m} min"));
        let archivo = format!("{}.md", c.nombre);
        let _ = writeln!(
            t,
            "| [{}]({archivo}) | {minutos} | `cargo run -p {} --release` | `cargo run -p {}` |",
            c.titulo.as_deref().unwrap_or(&archivo),
            c.paquete(Grupo::Lecciones),
            c.paquete(Grupo::Soluciones),
        );
    }
    let (h, m) = (total / 60, total % 60);
    let _ = writeln!(t, "| **total** | **{h} h {m:02} min** | | |");
    t
}
